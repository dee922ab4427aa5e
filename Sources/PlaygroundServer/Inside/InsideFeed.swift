import MicroHTTP

/// A session's RAC object changes streamed to the watchers that ask for them (`GET …/events?inside=1`,
/// docs/API.md, "Inside"): each change an `inside` frame with its line of narration, numbered
/// `E.N` — the last event sent before it, and the change's own number — so that one
/// `Last-Event-ID` resumes both: the events after `E` and the changes after `N`.
///
/// Changes are sent when the session next records an event (before it, so they come in the order
/// they happened), when its clock stops after an input or a move, and before it ends. Nothing is
/// narrated while no watcher asks: a first watcher's feed catches up without sending the past
/// (`GET …/inside` gives the objects so far). Bounded: the changes are the session's
/// ``InsideLog``'s, which stops at `--inside-changes`. A value in ``Session/State``, guarded by the
/// session's lock.
struct InsideFeed {
    /// The watchers that asked for the changes; each is one of the session's watchers too.
    private(set) var watchers: [ObjectIdentifier: EventStream] = [:]
    /// The objects as the changes streamed so far built them: what narrates the next.
    private var replay = InsideGraph.Replay()
    /// How many changes the feed has taken (sent, or skipped while no one watched).
    private(set) var taken = 0

    /// Sends every watcher the changes since the last flush, after event `lastEvent`.
    mutating func flush(_ log: InsideLog, lastEvent: Int) {
        guard !watchers.isEmpty else { return }
        let (changes, through) = log.narrate(from: taken, into: &replay)
        taken = through
        for (n, change) in changes {
            let frame = Self.frame(n, change, after: lastEvent)
            for watcher in watchers.values { watcher.send(frame) }
        }
    }

    /// Adds `watcher` once it has been sent what it missed: the feed first sends the others what
    /// is pending, then takes what no one watched without narrating it.
    mutating func add(_ watcher: EventStream, _ log: InsideLog, lastEvent: Int, catchingUp: (_ through: Int) -> Void) {
        flush(log, lastEvent: lastEvent)
        if watchers.isEmpty { taken = log.narrate(from: taken, into: &replay, skipping: true).through }
        catchingUp(taken)
        watchers[ObjectIdentifier(watcher)] = watcher
    }

    mutating func remove(_ id: ObjectIdentifier) { watchers[id] = nil }

    /// How many changes a watcher has been sent by now: those taken, while some watch; else all
    /// so far (a watcher that comes back asking takes up the changes after them).
    func through(_ log: InsideLog) -> Int { watchers.isEmpty ? log.changeCount : taken }

    /// Sends `watcher` the changes after number `after` through `through`, by a replay of its
    /// own, within `budget` bytes: the newest that fit, after a `reset` frame when some do not.
    static func catchUp(_ watcher: EventStream, _ log: InsideLog, after: Int, through: Int, lastEvent: Int, budget: Int) {
        guard after < through else { return }
        var replay = InsideGraph.Replay()
        _ = log.narrate(from: 0, to: after, into: &replay, skipping: true)
        let frames = log.narrate(from: after, to: through, into: &replay).changes.map { frame($0.n, $0.change, after: lastEvent) }
        var bytes = 0
        var first = frames.endIndex
        for index in frames.indices.reversed() {
            bytes += frames[index].frame.utf8.count
            guard bytes <= budget else { break }
            first = index
        }
        if first > frames.startIndex { watcher.send(missedChanges) }
        for frame in frames[first...] { watcher.send(frame) }
    }

    /// Said when the changes after a `Last-Event-ID` cannot all be sent: more than fit the
    /// stream's queue (the newest follow), or after an event no longer kept.
    static let missedChanges = ServerSentEvent(
        data: #"{"reason":"the changes after Last-Event-ID cannot all be sent; GET …/inside gives the objects now","inside":true}"#,
        event: "reset"
    )

    /// Change `n` as an `inside` frame: `{"n": N, …the change as GET …/inside lists it}`.
    static func frame(_ n: Int, _ change: InsideGraph.Change, after lastEvent: Int) -> ServerSentEvent {
        let id = "\(lastEvent).\(n)"
        guard let json = try? InsideGraph.encoder.encode(change) else { return ServerSentEvent(data: #"{"n":\#(n)}"#, event: "inside", id: id) }
        // The change's own object, opened to put its number first.
        return ServerSentEvent(data: #"{"n":\#(n),"# + String(decoding: json.dropFirst(), as: UTF8.self), event: "inside", id: id)
    }
}
