/// The per-session limits, from the command line.
struct SessionLimits: Sendable {
    /// Events kept for `Last-Event-ID` resumption.
    var eventBuffer = 1_024
    /// Bytes of events kept for `Last-Event-ID` resumption.
    var eventBytes = 4 * 1024 * 1024
    /// What all sessions sharing it keep together (the program sessions'); `nil` for no such limit.
    var sharedEventBytes: ByteLedger?
    /// Inputs accepted per second, sustained.
    var inputsPerSecond = 100.0
    /// Inputs accepted in a burst.
    var inputBurst = 100.0
}
