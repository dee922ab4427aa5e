import ArgumentParser
import Foundation
import Scenarios

/// How many sessions run, how long they live, what each keeps and the scenarios' timings: the
/// flags that become ``SessionStore/Limits`` and the scenarios' settings.
public struct SessionOptions: ParsableArguments {
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
        help: "Changes of its RAC objects a session keeps for GET …/inside (about 80 bytes each); past them its Inside view says where it stopped."
    )
    var insideChanges = InsideLog.maximumChanges

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

    @Option(help: "Threads running sessions' scenarios (default: one per core).")
    var sessionThreads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Threads for users' programs, apart from the scenarios', at a lower priority (default: one per core).")
    var programThreads = ProcessInfo.processInfo.activeProcessorCount

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        try OptionChecks.require(tickerIntervalMs, in: 10...3_600_000, "--ticker-interval-ms")
        try OptionChecks.require(throttleMs, in: 1...60_000, "--throttle-ms")
        try OptionChecks.require(serviceLatencyMs, in: 0...60_000, "--service-latency-ms")
        try OptionChecks.require(maxSessions, in: 1...1_000_000, "--max-sessions")
        try OptionChecks.require(maxSessionsPerClient, in: 1...1_000_000, "--max-sessions-per-client")
        if let maxProgramSessions { try OptionChecks.require(maxProgramSessions, in: 1...maxSessions, "--max-program-sessions") }
        try OptionChecks.require(programWorkPerClient, in: 1...10_000, "--program-work-per-client")
        try OptionChecks.require(sessionIdleTimeout, in: 1...86_400, "--session-idle-timeout")
        try OptionChecks.require(inputsPerSecond, in: 50...100_000, "--inputs-per-second")
        try OptionChecks.require(eventBuffer, in: 16...1_000_000, "--event-buffer")
        try OptionChecks.require(eventBufferBytes, in: (64 * 1024)...(1024 * 1024 * 1024), "--event-buffer-bytes")
        try OptionChecks.require(insideChanges, in: 0...1_000_000, "--inside-changes")
        try OptionChecks.require(programEventBytes, in: (64 * 1024)...(64 * 1024 * 1024 * 1024), "--program-event-bytes")
        try OptionChecks.require(maxHeapBytes, in: (16 * 1024 * 1024)...(1024 * 1024 * 1024 * 1024), "--max-heap-bytes")
        try OptionChecks.require(sessionThreads, in: 1...256, "--session-threads")
        try OptionChecks.require(programThreads, in: 1...256, "--program-threads")
    }

    /// The scenarios' timings.
    var settings: ScenarioSettings {
        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(tickerIntervalMs)
        settings.throttleInterval = .milliseconds(throttleMs)
        settings.serviceLatency = .milliseconds(serviceLatencyMs)
        return settings
    }

    /// The session store's limits.
    var limits: SessionStore.Limits {
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
        limits.session.insideChanges = insideChanges
        limits.programEventBytes = programEventBytes
        limits.maxHeapBytes = maxHeapBytes
        return limits
    }
}
