import ArgumentParser
import Dispatch
import Foundation
import Logging
import MicroHTTP
import Scenarios
import ServiceLifecycle
import Store

/// `playground`: serves the Reactive Playground's page, JSON API and live event streams.
@main
struct PlaygroundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Serve the Reactive Playground: live reactive pipelines over HTTP and Server-Sent Events."
    )

    @Option(help: "The address to listen on (an IPv4 or IPv6 literal).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port (the bound port is logged).")
    var port: UInt16 = 8080

    @Option(name: .customLong("public"), help: "The folder of the page's static files (found automatically when omitted).")
    var publicFolder: String?

    @Option(
        name: .customLong("docs"),
        help: "The folder of Reactive's documentation site, served under /docs/ (scripts/build-docs.sh; found automatically when omitted)."
    )
    var docsFolder: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "The ticker scenario's period, in milliseconds.")
    var tickerIntervalMs = 1_000

    @Option(help: "The search scenario's RAC throttle interval, in milliseconds (the instant-search example's 500).")
    var throttleMs = 500

    @Option(help: "How long each simulated service (sign-in, search, subscribe) takes, in milliseconds.")
    var serviceLatencyMs = 1_000

    @Option(help: "Live sessions at most; more answer 503 too_many_sessions.")
    var maxSessions = 1_000

    @Option(help: "Live sessions per client address at most (a class behind one address shares it); more answer 429 rate_limited.")
    var maxSessionsPerClient = 100

    @Option(
        help:
            "Live program sessions at most, within --max-sessions (the rest is kept for the built-in scenarios; default a quarter of it); one client may hold a quarter of them, more answer 429 share_used."
    )
    var maxProgramSessions: Int?

    @Option(help: "Programs one client may have waiting to be checked, run or drawn; more answer 429 share_used.")
    var programWorkPerClient = 32

    @Option(help: "Seconds after which a session nobody watches or drives is deleted.")
    var sessionIdleTimeout = 600

    @Option(help: "Inputs accepted per second and session, sustained (bursts of the same size); more answer 429.")
    var inputsPerSecond = 100

    @Option(help: "Events per session kept for Last-Event-ID resumption.")
    var eventBuffer = 1_024

    @Option(help: "Bytes of events per session kept for Last-Event-ID resumption (the oldest go first).")
    var eventBufferBytes = 4 * 1024 * 1024

    @Option(
        help:
            "Bytes of events all program sessions keep together, shared fairly between clients (the largest holder forgets its oldest first); a client holding its share of a full budget gets 429 share_used for a new one."
    )
    var programEventBytes = 64 * 1024 * 1024

    @Option(
        help:
            "Heap bytes in use beyond which the program session that sent the most bytes lately is halted and new program sessions from the clients whose programs sent the most answer 429 share_used."
    )
    var maxHeapBytes = 192 * 1024 * 1024

    @Option(help: "The largest value a program may make, in bytes of its JSON; larger ones fail their stage with value_too_large.")
    var maxValueBytes = 64 * 1024

    @Option(help: "The largest answer of POST /api/marbles, in bytes; a run that makes more is truncated.")
    var marblesAnswerBytes = 4 * 1024 * 1024

    @Option(help: "Threads running sessions' scenarios (default: one per core).")
    var sessionThreads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Threads for users' programs, apart from the scenarios', at a lower priority (default: one per core).")
    var programThreads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Programs a client may run (POST /api/pipelines) per second, sustained; more answer 429.")
    var programRunsPerSecond = 2

    @Option(help: "Programs a client may run at once before --program-runs-per-second applies: a class pressing Run together.")
    var programRunBurst = 40

    @Option(help: "Programs a client may check (POST /api/pipelines/check) per second, in bursts as large; more answer 429.")
    var programChecksPerSecond = 60

    @Option(help: "Marble programs a client may run (POST /api/marbles) per second, in bursts as large; more answer 429.")
    var marbleRunsPerSecond = 60

    @Option(
        help:
            "Finds a client may ask for (POST /api/marbles/find, hundreds of runs each) per second, in bursts of three times as many; more answer 429."
    )
    var marbleFindsPerSecond = 2

    @Option(help: "The largest request body accepted, in bytes; larger ones answer 413.")
    var maxBodyBytes = 64 * 1024

    @Option(help: "Open connections at most; beyond, 503 server_busy with Retry-After.")
    var maxConnections = 10_000

    @Option(help: "Requests and event streams in progress per client address at most (429 beyond); 0 for no limit.")
    var maxConnectionsPerClient = 0

    @Flag(help: "Take the client address from X-Forwarded-For (only behind a proxy that sets it).")
    var trustProxy = false

    @Option(help: "Seconds without any traffic after which a connection is closed.")
    var connectionTimeout = 30

    @Option(
        help:
            "Seconds a connection has to send a whole request (head and body) once it is ready for one; slower ones are closed (slowloris), and so are keep-alive connections idle that long."
    )
    var requestTimeout = 10

    @Option(help: "Memory per connection for its request head and response buffer, in KiB (heads over 8 KiB answer 431).")
    var connectionMemoryKib = 20

    @Option(help: "Bytes queued for one event-stream client before it is disconnected as too slow.")
    var sseQueueBytes = 256 * 1024

    @Option(help: "Seconds between keep-alive comments on idle event streams.")
    var keepAliveSeconds = 15

    @Option(
        help:
            "glibc malloc arenas at most (default glibc's own, 8 per core): one per thread keeps users' programs' heaps (and their locks) apart from the scenarios' and the polling thread's; 1 keeps a little less memory after a flood."
    )
    var mallocArenas = min(8 * ProcessInfo.processInfo.activeProcessorCount, 1_024)

    @Option(
        help:
            "This instance's name among several behind a proxy: a DNS label ([a-z0-9-], 1 to 32). Its sessions' ids start with it (ID.), and a request for another instance's session answers 421 misdirected."
    )
    var instanceID: String?

    @Option(
        help:
            "On SIGTERM or SIGINT, seconds to keep serving the live sessions while refusing new ones (/readyz answers 503) before they end with an `end` event and the server stops."
    )
    var drainSeconds = 0

    @Option(
        help:
            "Where links are kept: sqlite:PATH (a file, made with its folder when missing; sqlite::memory: keeps them as long as the process), or postgres://USER:PASSWORD@HOST:PORT/DATABASE for several instances sharing one store."
    )
    var database = "sqlite:.data/playground.sqlite"

    @Option(help: "Links a client may keep (POST /api/links) per second, sustained; more answer 429.")
    var linkSavesPerSecond = 2

    @Option(help: "Links a client may keep at once before --link-saves-per-second applies: a class saving together.")
    var linkSaveBurst = 60

    @Option(
        help:
            "Bytes of links a client may keep in an hour (programs, lessons, courses and kept runs of up to a MiB): the store is shared; more answer 429."
    )
    var linkBytesPerHour = API.defaultLinkBytesPerHour

    @Option(help: "The most bytes the store of links may take (SQLite's file, PostgreSQL's table); new links past it answer 507.")
    var maxStoreBytes = 1 << 30

    @Option(help: "Students one room takes at most; more answer 409 room_full.")
    var roomStudents = 500

    @Option(help: "Rooms one address may have open at once (a school's teachers share theirs); more answer 429.")
    var roomsPerClient = 20

    @Option(help: "Rooms open at most; more answer 503 too_many_rooms.")
    var maxRooms = 200

    @Option(
        help:
            "Joins a client address may make (POST /api/join/CODE) per second, sustained; a failed one (no room has the code, no name) counts ten. More answer 429."
    )
    var joinAttemptsPerSecond = 1

    @Option(help: "Joins a client address may make at once before --join-attempts-per-second applies: a class joining together.")
    var joinBurst = 100

    @Option(
        help: "Recordings a client may ask for or keep (/api/sessions/SID/recording, up to a MiB each) per second, in bursts of ten times as many."
    )
    var recordingsPerSecond = 2

    @Option(help: "Seconds after which a room where nobody drives, asks, joins or answers ends, with its session.")
    var roomIdleSeconds = 3_600

    @Option(
        help:
            "This instance's first character of every room's join code (one of ACEFGHJKMNPRTWXY34679), so that a proxy in front of several instances sends POST /api/join/CODE to the one holding the room."
    )
    var roomCodePrefix: String?

    @Flag(help: "Check that a playground answers /healthz on --host/--port and exit 0 if it does, 1 if not.")
    var healthcheck = false

    func validate() throws {
        try Self.require(tickerIntervalMs, in: 10...3_600_000, "--ticker-interval-ms")
        try Self.require(throttleMs, in: 1...60_000, "--throttle-ms")
        try Self.require(serviceLatencyMs, in: 0...60_000, "--service-latency-ms")
        try Self.require(maxSessions, in: 1...1_000_000, "--max-sessions")
        try Self.require(maxSessionsPerClient, in: 1...1_000_000, "--max-sessions-per-client")
        if let maxProgramSessions { try Self.require(maxProgramSessions, in: 1...maxSessions, "--max-program-sessions") }
        try Self.require(programWorkPerClient, in: 1...10_000, "--program-work-per-client")
        try Self.require(sessionIdleTimeout, in: 1...86_400, "--session-idle-timeout")
        try Self.require(inputsPerSecond, in: 50...100_000, "--inputs-per-second")
        try Self.require(eventBuffer, in: 16...1_000_000, "--event-buffer")
        try Self.require(eventBufferBytes, in: (64 * 1024)...(1024 * 1024 * 1024), "--event-buffer-bytes")
        try Self.require(programEventBytes, in: (64 * 1024)...(64 * 1024 * 1024 * 1024), "--program-event-bytes")
        try Self.require(maxValueBytes, in: 1_024...(16 * 1024 * 1024), "--max-value-bytes")
        try Self.require(maxHeapBytes, in: (16 * 1024 * 1024)...(1024 * 1024 * 1024 * 1024), "--max-heap-bytes")
        try Self.require(marblesAnswerBytes, in: (64 * 1024)...(1024 * 1024 * 1024), "--marbles-answer-bytes")
        try Self.require(roomStudents, in: 1...100_000, "--room-students")
        try Self.require(roomsPerClient, in: 1...10_000, "--rooms-per-client")
        try Self.require(maxRooms, in: 1...100_000, "--max-rooms")
        try Self.require(roomIdleSeconds, in: 1...86_400, "--room-idle-seconds")
        try Self.require(joinAttemptsPerSecond, in: 1...10_000, "--join-attempts-per-second")
        try Self.require(joinBurst, in: 1...100_000, "--join-burst")
        try Self.require(recordingsPerSecond, in: 1...10_000, "--recordings-per-second")
        if let roomCodePrefix, roomCodePrefix.count != 1 || !RoomKeys.codeAlphabet.contains(roomCodePrefix.first!) {
            throw ValidationError("--room-code-prefix must be one of \(String(RoomKeys.codeAlphabet)).")
        }
        if maxValueBytes * 2 + 1_024 > sseQueueBytes {
            // An event carries its value once in `value` (and its stream and numbers): it must fit a
            // watcher's queue with room to spare, or one value would cut every watcher for good.
            throw ValidationError("--max-value-bytes must be at most half of --sse-queue-bytes less 512.")
        }
        try Self.require(sessionThreads, in: 1...256, "--session-threads")
        try Self.require(programThreads, in: 1...256, "--program-threads")
        try Self.require(programRunsPerSecond, in: 1...100_000, "--program-runs-per-second")
        try Self.require(programRunBurst, in: 1...100_000, "--program-run-burst")
        try Self.require(programChecksPerSecond, in: 1...100_000, "--program-checks-per-second")
        try Self.require(marbleRunsPerSecond, in: 1...100_000, "--marble-runs-per-second")
        try Self.require(marbleFindsPerSecond, in: 1...10_000, "--marble-finds-per-second")
        try Self.require(maxBodyBytes, in: 1...(64 * 1024 * 1024), "--max-body-bytes")
        try Self.require(maxConnections, in: 1...1_000_000, "--max-connections")
        try Self.require(maxConnectionsPerClient, in: 0...1_000_000, "--max-connections-per-client")
        try Self.require(connectionTimeout, in: 1...3_600, "--connection-timeout")
        try Self.require(requestTimeout, in: 1...3_600, "--request-timeout")
        try Self.require(connectionMemoryKib, in: 12...1_024, "--connection-memory-kib")
        try Self.require(sseQueueBytes, in: 1_024...(256 * 1024 * 1024), "--sse-queue-bytes")
        if sseQueueBytes < Room.maximumSnapshotBytes + 16 * 1024 {
            // A room's snapshot is bounded by construction: a watcher's queue holds the largest.
            throw ValidationError(
                "--sse-queue-bytes must be at least \(Room.maximumSnapshotBytes / 1024 + 16) KiB: a room's snapshot is up to \(Room.maximumSnapshotBytes / 1024) KiB."
            )
        }
        try Self.require(keepAliveSeconds, in: 1...3_600, "--keep-alive-seconds")
        try Self.require(mallocArenas, in: 1...1_024, "--malloc-arenas")
        try Self.require(drainSeconds, in: 0...3_600, "--drain-seconds")
        try Self.require(linkSavesPerSecond, in: 1...10_000, "--link-saves-per-second")
        // More than the largest link (a run: 1 MiB of events and its head), so that one always fits.
        try Self.require(linkBytesPerHour, in: (2 << 20)...(1 << 40), "--link-bytes-per-hour")
        try Self.require(linkSaveBurst, in: 1...100_000, "--link-save-burst")
        try Self.require(maxStoreBytes, in: (64 * 1024)...(1 << 50), "--max-store-bytes")
        if Self.sqlitePath(database) == nil, !Self.isPostgres(database) {
            throw ValidationError("--database must be sqlite:PATH, sqlite::memory: or postgres://USER:PASSWORD@HOST:PORT/DATABASE.")
        }
        if let docsFolder, !FileManager.default.fileExists(atPath: docsFolder + "/index.html") {
            throw ValidationError(
                "--docs \(docsFolder): no documentation site there (a folder with index.html, as scripts/build-docs.sh builds it)."
            )
        }
        if let instanceID, !SessionID.isValidInstance(instanceID) {
            throw ValidationError("--instance-id must be 1 to 32 characters of a-z, 0-9 and -.")
        }
    }

    /// Whether `--database` names a PostgreSQL server (a URL libpq reads; at most 4 KiB).
    static func isPostgres(_ database: String) -> Bool {
        (database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")) && database.utf8.count <= 4_096
            && !database.contains("\u{0}")
    }

    /// The file `--database sqlite:PATH` names (`:memory:` for none), or nil for another value.
    static func sqlitePath(_ database: String) -> String? {
        guard database.hasPrefix("sqlite:") else { return nil }
        let path = String(database.dropFirst("sqlite:".count))
        return path.isEmpty || path.utf8.count > 4_096 || path.contains("\u{0}") ? nil : path
    }

    private static func require(_ value: Int, in range: ClosedRange<Int>, _ flag: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound).")
        }
    }

    func run() async throws {
        if healthcheck {
            throw ExitCode(HealthProbe.check(host: host, port: port) ? 0 : 1)
        }
        ProcessMemory.limitAllocatorArenas(to: mallocArenas)
        ProcessMemory.fixTrimThreshold(at: 128 * 1024)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "playground")
        let publicRoot = try PublicFolder.locate(explicit: publicFolder)

        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(tickerIntervalMs)
        settings.throttleInterval = .milliseconds(throttleMs)
        settings.serviceLatency = .milliseconds(serviceLatencyMs)
        var limits = SessionStore.Limits()
        limits.maxSessions = maxSessions
        limits.maxSessionsPerClient = maxSessionsPerClient
        limits.maxProgramSessions = maxProgramSessions ?? max(1, maxSessions / 4)
        limits.programWorkPerClient = programWorkPerClient
        limits.idleTimeout = .seconds(sessionIdleTimeout)
        limits.session.inputsPerSecond = Double(inputsPerSecond)
        limits.session.inputBurst = Double(inputsPerSecond)
        limits.session.eventBuffer = eventBuffer
        limits.session.eventBytes = eventBufferBytes
        limits.programEventBytes = programEventBytes
        limits.maxHeapBytes = maxHeapBytes

        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.defaultHeaders = API.securityHeaders
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerClient = maxConnectionsPerClient == 0 ? nil : maxConnectionsPerClient
        configuration.trustProxy = trustProxy
        configuration.accessLogPath = AccessLogPaths.shortened
        configuration.connectionTimeoutSeconds = connectionTimeout
        configuration.requestTimeout = .seconds(requestTimeout)
        configuration.connectionMemoryBytes = connectionMemoryKib * 1024
        configuration.eventStreamQueueLimit = sseQueueBytes
        configuration.keepAliveInterval = .seconds(keepAliveSeconds)

        let metrics = PlaygroundMetrics()
        let sessions = SessionStore(
            settings: settings,
            limits: limits,
            threads: sessionThreads,
            programThreads: programThreads,
            instanceID: instanceID,
            logger: Logger(label: "playground.sessions"),
            onMemoryHalt: { metrics.memoryLimitReached("program_halted") }
        )
        var roomLimits = RoomLimits()
        roomLimits.studentsPerRoom = roomStudents
        roomLimits.roomsPerClient = roomsPerClient
        roomLimits.maxRooms = maxRooms
        roomLimits.idleTimeout = .seconds(roomIdleSeconds)
        roomLimits.codePrefix = roomCodePrefix?.first
        var api = API(staticFiles: try StaticFiles(root: publicRoot), sessions: sessions, metrics: metrics, roomLimits: roomLimits)
        api.programRuns = ClientRateLimiter(perSecond: Double(programRunsPerSecond), burst: Double(programRunBurst))
        api.programChecks = ClientRateLimiter(perSecond: Double(programChecksPerSecond), burst: Double(programChecksPerSecond))
        api.marbleRuns = ClientRateLimiter(perSecond: Double(marbleRunsPerSecond), burst: Double(marbleRunsPerSecond))
        api.marbleFinds = ClientRateLimiter(perSecond: Double(marbleFindsPerSecond), burst: Double(3 * marbleFindsPerSecond))
        api.programLimits.valueBytes = maxValueBytes
        api.marblesAnswerBytes = marblesAnswerBytes
        api.gallery = try GalleryIndex(publicRoot: publicRoot)
        api.lessons = LessonIndex(publicRoot: publicRoot, logger: logger)
        do {
            if let path = Self.sqlitePath(database) {
                let store = try SQLiteLinkStore(path: path)
                api.links = LinkStoreWorker(store: store, logger: logger)
                api.links?.recordSize(try store.storedBytes(), api.metrics)
            } else {
                let store = PostgresLinkStore(url: database)
                api.links = LinkStoreWorker(store: store, logger: logger)
                do {
                    try store.connect()
                    api.links?.recordSize(try store.storedBytes(), api.metrics)
                } catch {
                    // Everything but links works meanwhile; the store connects when PostgreSQL answers.
                    logger.error("links unavailable until PostgreSQL answers (--database): \(error)")
                }
            }
        } catch {
            // A PostgreSQL URL may hold a password: it is never repeated.
            throw ValidationError("--database \(Self.isPostgres(database) ? "(PostgreSQL)" : database): \(error)")
        }
        api.linkSaves = ClientRateLimiter(perSecond: Double(linkSavesPerSecond), burst: Double(linkSaveBurst))
        api.linkBytes = ClientRateLimiter(perSecond: Double(linkBytesPerHour) / 3_600, burst: Double(linkBytesPerHour))
        api.maxStoreBytes = maxStoreBytes
        api.joinAttempts = ClientRateLimiter(perSecond: Double(joinAttemptsPerSecond), burst: Double(joinBurst))
        api.recordingReads = ClientRateLimiter(perSecond: Double(recordingsPerSecond), burst: Double(10 * recordingsPerSecond))
        api.documentation = try Documentation.locate(explicit: docsFolder, publicRoot: publicRoot)
        if api.documentation == nil {
            logger.notice("no documentation site found: /docs/ answers 404 (scripts/build-docs.sh builds it)")
        }
        let server = HTTPServer(
            configuration: configuration,
            logger: Logger(label: "microhttp"),
            metrics: metrics.server,
            router: api.router()
        )
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let instance = instanceID ?? "-"
        // SIGTERM and SIGINT start a graceful shutdown: the group asks its services to stop in
        // reverse order, each once the one after it has finished, so the sessions drain and end
        // while the server still serves them, then the server stops.
        let group = ServiceGroup(
            services: [
                HTTPServerService(server: server) { port in
                    logger.notice(
                        "Reactive Playground is serving http://\(shownHost):\(port)/",
                        metadata: ["public": "\(publicRoot)", "instance": "\(instance)"]
                    )
                },
                SessionDrainService(sessions: sessions, rooms: api.rooms, drain: .seconds(drainSeconds), logger: logger),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        do {
            try await group.run()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
