/// The per-session limits, from the command line.
struct SessionLimits: Sendable {
    /// Events kept for `Last-Event-ID` resumption.
    var eventBuffer = 1_024
    /// Bytes of events kept for `Last-Event-ID` resumption.
    var eventBytes = 4 * 1024 * 1024
    /// The session's client's account in what all program sessions keep together, shared fairly
    /// between clients; `nil` for no such limit (a scenario's session).
    var sharedEventBytes: LedgerAccount?
    /// Changes of its RAC objects kept for `GET …/inside` (``InsideLog``).
    var insideChanges = InsideLog.maximumChanges
    /// Inputs accepted per second, sustained.
    var inputsPerSecond = 100.0
    /// Inputs accepted in a burst.
    var inputBurst = 100.0
    /// Bytes of the journal of its inputs the session keeps to be replayed (``SessionJournal``);
    /// `nil` for none: only a room's session keeps one.
    var journalBytes: Int?
}
