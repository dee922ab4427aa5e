import ArgumentParser

/// What users' programs, marble runs, finds and recordings may do, and how often one client may
/// ask: the flags that become the API's program limits and rate limiters.
public struct ProgramOptions: ParsableArguments {
    @Option(help: "The largest value a program may make, in bytes of its JSON; larger ones fail their stage with value_too_large.")
    var maxValueBytes = 64 * 1024

    @Option(help: "The largest answer of POST /api/marbles, in bytes; a run that makes more is truncated.")
    var marblesAnswerBytes = 4 * 1024 * 1024

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

    @Option(
        help: "Recordings a client may ask for or keep (/api/sessions/SID/recording, up to a MiB each) per second, in bursts of ten times as many."
    )
    var recordingsPerSecond = 2

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        try OptionChecks.require(maxValueBytes, in: 1_024...(16 * 1024 * 1024), "--max-value-bytes")
        try OptionChecks.require(marblesAnswerBytes, in: (64 * 1024)...(1024 * 1024 * 1024), "--marbles-answer-bytes")
        try OptionChecks.require(programRunsPerSecond, in: 1...100_000, "--program-runs-per-second")
        try OptionChecks.require(programRunBurst, in: 1...100_000, "--program-run-burst")
        try OptionChecks.require(programChecksPerSecond, in: 1...100_000, "--program-checks-per-second")
        try OptionChecks.require(marbleRunsPerSecond, in: 1...100_000, "--marble-runs-per-second")
        try OptionChecks.require(marbleFindsPerSecond, in: 1...10_000, "--marble-finds-per-second")
        try OptionChecks.require(recordingsPerSecond, in: 1...10_000, "--recordings-per-second")
    }

    /// Sets the API's program limits and the rate limiters of the routes that run programs.
    func apply(to api: inout API) {
        api.programRuns = ClientRateLimiter(perSecond: Double(programRunsPerSecond), burst: Double(programRunBurst))
        api.programChecks = ClientRateLimiter(perSecond: Double(programChecksPerSecond), burst: Double(programChecksPerSecond))
        api.marbleRuns = ClientRateLimiter(perSecond: Double(marbleRunsPerSecond), burst: Double(marbleRunsPerSecond))
        api.marbleFinds = ClientRateLimiter(perSecond: Double(marbleFindsPerSecond), burst: Double(3 * marbleFindsPerSecond))
        api.programLimits.valueBytes = maxValueBytes
        api.marblesAnswerBytes = marblesAnswerBytes
        api.recordingReads = ClientRateLimiter(perSecond: Double(recordingsPerSecond), burst: Double(10 * recordingsPerSecond))
    }
}
