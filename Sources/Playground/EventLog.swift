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
    private var buffer: [Session.Recorded] = []
    private var start = 0
    private var latestOfStateStream: [String: Session.Recorded] = [:]
    private let stateStreams: Set<String>
    private let limits: SessionLimits

    init(stateStreams: Set<String>, limits: SessionLimits) {
        self.stateStreams = stateStreams
        self.limits = limits
    }

    /// The events kept, oldest first.
    var kept: ArraySlice<Session.Recorded> { buffer[start...] }

    /// Takes the next event number.
    mutating func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }

    /// Adds `recorded` (numbered by ``takeSeq()``): counts a subscription's start or end, remembers
    /// a state stream's latest value or end, and keeps it, forgetting the oldest while more are
    /// kept than the session may keep in count or in bytes, or than all program sessions together
    /// may keep in bytes (the newest is always kept: no value is larger than an event stream's queue).
    mutating func append(_ recorded: Session.Recorded) {
        switch recorded.kind {
        case "subscribed": subscriptions[recorded.stream, default: Session.SubscriptionTally()].began()
        case "disposed": subscriptions[recorded.stream, default: Session.SubscriptionTally()].ended()
        default:
            if stateStreams.contains(recorded.stream) { latestOfStateStream[recorded.stream] = recorded }
        }
        let size = recorded.bytes
        buffer.append(recorded)
        bytes += size
        limits.sharedEventBytes?.add(size)
        while buffer.count - start > 1,
            buffer.count - start > limits.eventBuffer || bytes > limits.eventBytes || limits.sharedEventBytes?.isOverLimit == true
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
    var snapshot: [Session.Recorded] {
        latestOfStateStream.values.sorted { $0.seq < $1.seq }
    }

    /// How a watcher that sent `lastEventID` (`nil`: none; `.some(nil)`: one that is not a valid
    /// event number) starts.
    func resumption(after lastEventID: Int??) -> Resumption {
        Self.resumption(after: lastEventID, oldestBuffered: kept.first?.seq ?? nextSeq, next: nextSeq)
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
    /// One recorded event: its number, stream, what happened and when, why, and its SSE frame.
    /// Kept as text only — a value's tree of JSON takes many times its text's bytes.
    struct Recorded: Sendable {
        let seq: Int
        let stream: String
        /// `next`, `error`, `completed`, `subscribed` or `disposed`.
        let kind: String
        /// The JSON of a `next`'s value or an `error`'s `{code, message}`; `nil` for `completed`.
        let valueJSON: String?
        /// Milliseconds since the session started (virtual on a virtual clock).
        let t: Double
        /// The input events at the root of the propagation that sent it (see ``Causes``).
        let causes: [Int]
        /// The subscription that began, delivered it, or ended (`nil` for an input's events).
        let subscription: Int?
        /// The name of the scheduler whose thread delivered it (``Session/currentThread``).
        let thread: String
        let event: ServerSentEvent

        /// The bytes it holds, about: its texts and a fixed share for the rest.
        var bytes: Int {
            event.frame.utf8.count + (valueJSON?.utf8.count ?? 0) + stream.utf8.count + 8 * causes.count + 128
        }
    }

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
