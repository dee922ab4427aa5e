import MicroHTTP

/// A session's events as it keeps them for its watchers: numbered in order, the latest of each
/// state stream remembered for a new watcher's snapshot, each stream's subscriptions counted, and
/// the newest kept for `Last-Event-ID` resumption, bounded in count and in bytes — the session's
/// own bytes and, for program sessions, the bytes all of them keep together.
///
/// A value type: the session mutates it under its lock, with the watchers it feeds.
struct EventLog {
    /// The number the next event gets (its SSE `id:`).
    private(set) var nextSeq = 1
    /// Each stream's subscriptions, by name (bounded by the names a pipeline has).
    private(set) var subscriptions: [String: Session.SubscriptionTally] = [:]
    /// The bytes of the events kept.
    private(set) var bytes = 0
    private var buffer: [Entry] = []
    private var start = 0
    private var latestOfStateStream: [String: Entry] = [:]
    private let stateStreams: Set<String>
    private let limits: SessionLimits

    /// An event kept, with its SSE frame, formatted once.
    struct Entry: Sendable {
        let event: RecordedEvent
        let frame: ServerSentEvent
        /// How many of the session's RAC object changes were streamed before it (``InsideFeed``):
        /// where a watcher resuming after it takes up the changes.
        var insideThrough = 0

        /// The bytes it holds, about: its texts and a fixed share for the rest.
        var bytes: Int {
            frame.frame.utf8.count + (event.valueJSON?.utf8.count ?? 0) + event.stream.utf8.count + 8 * event.causes.count + 128
        }
    }

    init(stateStreams: Set<String>, limits: SessionLimits) {
        self.stateStreams = stateStreams
        self.limits = limits
    }

    /// The events kept, oldest first.
    var kept: ArraySlice<Entry> { buffer[start...] }

    /// Takes the next event number.
    mutating func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Adds `entry` (numbered by ``takeSeq()``): counts a subscription's start or end, remembers
    /// a state stream's latest value or end, and keeps it, forgetting the oldest as
    /// ``forgetOldest()`` says.
    mutating func append(_ entry: Entry) {
        let stream = entry.event.stream
        switch entry.event.kind {
        case .subscribed: subscriptions[stream, default: Session.SubscriptionTally()].began()
        case .disposed: subscriptions[stream, default: Session.SubscriptionTally()].ended()
        case .next, .error, .completed:
            if stateStreams.contains(stream) { latestOfStateStream[stream] = entry }
        }
        let size = entry.bytes
        buffer.append(entry)
        bytes += size
        limits.sharedEventBytes?.add(size)
        forgetOldest()
    }

    /// Forgets the oldest events while more are kept than the session may keep in count or in
    /// bytes, or while its client holds more than its share of a full shared budget; the newest
    /// is always kept (no value is larger than an event stream's queue). What a session asked to
    /// shed (``ByteLedger``) runs.
    mutating func forgetOldest() {
        while buffer.count - start > 1,
            buffer.count - start > limits.eventBuffer || bytes > limits.eventBytes || limits.sharedEventBytes?.mustShed == true
        {
            let oldest = buffer[start].bytes
            start += 1
            bytes -= oldest
            limits.sharedEventBytes?.add(-oldest)
        }
        if start > limits.eventBuffer || start > buffer.count / 2 {  // compact now and then, not per event
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// The latest event of every state stream, in the order they happened: a new watcher's start.
    var snapshot: [Entry] {
        latestOfStateStream.values.sorted { $0.event.seq < $1.event.seq }
    }

    /// How a watcher that sent `lastEventID` (`nil`: none; `.some(nil)`: one that is not a valid
    /// event number) starts.
    func resumption(after lastEventID: Int??) -> Resumption {
        Self.resumption(after: lastEventID, oldestBuffered: kept.first?.event.seq ?? nextSeq, next: nextSeq)
    }

    /// Forgets every event kept, giving their bytes back to the shared budget.
    mutating func clear() {
        limits.sharedEventBytes?.add(-bytes)
        buffer = []
        start = 0
        bytes = 0
    }

    /// How a new watcher starts.
    enum Resumption: Equatable {
        /// No `Last-Event-ID`: the latest value of every state stream.
        case snapshot
        /// Every buffered event after this number.
        case replay(after: Int)
        /// The events after the id are gone (or the id is not one of ours): `reset`, then the snapshot.
        case reset
    }

    /// Decides how a watcher that sent `lastEventID` starts, given the oldest buffered event's
    /// number and the next one. No arithmetic on the client's number: it is only compared.
    static func resumption(after lastEventID: Int??, oldestBuffered oldest: Int, next: Int) -> Resumption {
        guard let lastEventID else { return .snapshot }
        guard let lastEventID, lastEventID >= oldest - 1, lastEventID < next else { return .reset }
        return .replay(after: lastEventID)
    }
}

extension Session {
    /// One stream's subscriptions (`GET /api/sessions/{sid}`'s `subscriptions`): made since the
    /// session started, and live now.
    struct SubscriptionTally: Encodable, Equatable {
        var subscriptions = 0
        var live = 0
        mutating func began() {
            subscriptions += 1
            live += 1
        }
        mutating func ended() { live = max(0, live - 1) }
    }
}
