import Logging
import MicroHTTP
import Testing

@testable import PlaygroundServer

/// The flags reach what they set: the tests build the playground from parsed options exactly as
/// the executable does (``Playground/build(_:logger:)``), so a flag wired to nothing fails here.
@Suite("Wiring: flags to the server")
struct PlaygroundWiringTests {
    static func build(_ arguments: [String]) throws -> Playground {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let options = try PlaygroundOptions.parse(["--public", APITests.publicFolder, "--database", "sqlite::memory:"] + arguments)
        return try Playground.build(options, logger: logger)
    }

    @Test func theServerFlagsBecomeItsConfiguration() throws {
        let playground = try Self.build([
            "--host", "::1", "--port", "0", "--max-body-bytes", "1000", "--max-connections", "7", "--max-connections-per-client", "3",
            "--trust-proxy", "--connection-timeout", "9", "--request-timeout", "4", "--connection-memory-kib", "32",
            "--sse-queue-bytes", "200000", "--keep-alive-seconds", "5", "--drain-seconds", "2", "--instance-id", "a1",
        ])
        let configuration = playground.configuration
        #expect(configuration.host == "::1" && configuration.port == 0)
        #expect(configuration.maxBodyBytes == 1000 && configuration.maxConnections == 7 && configuration.maxConnectionsPerClient == 3)
        #expect(configuration.trustProxy && configuration.connectionTimeoutSeconds == 9 && configuration.requestTimeout == .seconds(4))
        #expect(configuration.connectionMemoryBytes == 32 * 1024 && configuration.eventStreamQueueLimit == 200_000)
        #expect(configuration.keepAliveInterval == .seconds(5) && playground.drain == .seconds(2))
        #expect(playground.api.sessions.instanceID == "a1")
        #expect(configuration.defaultHeaders.map(\.name) == API.securityHeaders.map(\.name))
        #expect(try Self.build([]).configuration.maxConnectionsPerClient == nil, "0, the default, is no limit")
    }

    @Test func theSessionFlagsBecomeTheStoresLimits() throws {
        let playground = try Self.build([
            "--max-sessions", "40", "--max-sessions-per-client", "6", "--program-work-per-client", "5", "--session-idle-timeout", "70",
            "--inputs-per-second", "80", "--event-buffer", "32", "--event-buffer-bytes", "100000", "--program-event-bytes", "200000",
            "--inside-changes", "500",
            "--max-heap-bytes", "33554432", "--ticker-interval-ms", "250", "--throttle-ms", "30", "--service-latency-ms", "20",
        ])
        let limits = playground.api.sessions.limits
        #expect(limits.maxSessions == 40 && limits.maxSessionsPerClient == 6 && limits.maxProgramSessions == 10, "a quarter by default")
        #expect(limits.programWorkPerClient == 5 && limits.idleTimeout == .seconds(70))
        #expect(limits.session.inputsPerSecond == 80 && limits.session.inputBurst == 80)
        #expect(limits.session.eventBuffer == 32 && limits.session.eventBytes == 100_000 && limits.session.insideChanges == 500)
        #expect(limits.programEventBytes == 200_000 && limits.maxHeapBytes == 33_554_432)
        let settings = playground.api.sessions.settings
        #expect(settings.tickInterval == .milliseconds(250) && settings.throttleInterval == .milliseconds(30))
        #expect(settings.serviceLatency == .milliseconds(20))
        #expect(try Self.build(["--max-program-sessions", "3"]).api.sessions.limits.maxProgramSessions == 3)
    }

    @Test func theProgramFlagsBecomeTheAPIsLimiters() throws {
        let api = try Self.build([
            "--max-value-bytes", "2048", "--marbles-answer-bytes", "70000", "--program-runs-per-second", "3", "--program-run-burst", "9",
            "--program-checks-per-second", "11", "--marble-runs-per-second", "12", "--marble-finds-per-second", "4",
            "--recordings-per-second", "5",
        ]).api
        #expect(api.programLimits.valueBytes == 2048 && api.marblesAnswerBytes == 70_000)
        #expect(api.programRuns.perSecond == 3 && api.programRuns.burst == 9)
        #expect(api.programChecks.perSecond == 11 && api.programChecks.burst == 11)
        #expect(api.marbleRuns.perSecond == 12 && api.marbleFinds.perSecond == 4 && api.marbleFinds.burst == 12)
        #expect(api.recordingReads.perSecond == 5 && api.recordingReads.burst == 50)
    }

    @Test func theLinkAndRoomFlagsBecomeTheirLimits() throws {
        let api = try Self.build([
            "--link-saves-per-second", "3", "--link-save-burst", "7", "--link-bytes-per-hour", "7200000", "--max-store-bytes", "100000",
            "--room-students", "9", "--rooms-per-client", "2", "--max-rooms", "8", "--join-attempts-per-second", "6", "--join-burst", "13",
            "--room-idle-seconds", "90", "--room-code-prefix", "K",
        ]).api
        #expect(api.links != nil, "sqlite::memory: opened")
        #expect(api.linkSaves.perSecond == 3 && api.linkSaves.burst == 7)
        #expect(api.linkBytes.perSecond == 2_000 && api.linkBytes.burst == 7_200_000 && api.maxStoreBytes == 100_000)
        let limits = api.rooms.limits
        #expect(limits.studentsPerRoom == 9 && limits.roomsPerClient == 2 && limits.maxRooms == 8)
        #expect(limits.idleTimeout == .seconds(90) && limits.codePrefix == "K")
        #expect(api.joinAttempts.perSecond == 6 && api.joinAttempts.burst == 13)
    }

    @Test func theBuiltRouterServesThePageAndTheAPI() throws {
        let router = try Self.build([]).api.router()
        #expect(TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/healthz")).status == 200)
        #expect(TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/")).status == 200)
        #expect(TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/scenarios")).status == 200)
    }
}
