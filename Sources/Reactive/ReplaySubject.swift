import Locking

/// A subject that replays past events to new subscribers: RAC's `RACReplaySubject`.
///
/// It keeps up to `capacity` of the latest values (`nil` for all of them) and its terminal event;
/// a new subscriber first receives those, in order, then live events. With capacity 0 it replays
/// only the terminal event.
///
/// Ordering is exact even when a subscriber arrives on one thread while another sends: events sent
/// during a replay are held back for that subscriber and delivered right after it. No lock is held
/// while a subscriber runs.
public final class ReplaySubject<Value: Sendable, Failure: Error>: SubjectProtocol {
    private let core: ReplayCore<Value, Failure>

    /// The subject as a signal: replays what it holds, then delivers live events. Made once.
    public let signal: Signal<Value, Failure>

    /// The subscriptions that feed this subject through ``SubjectProtocol/input``: disposed when it
    /// ends, and a feed added after that is disposed at once (RAC `didSubscribeWithDisposable:`).
    public let feeds = CompoundDisposable()

    /// The most values replayed, or `nil` for no limit.
    public var capacity: Int? { core.capacity }

    /// The number of current subscribers (for tests and diagnostics).
    public var subscriberCount: Int { core.count }

    /// Creates a replay subject keeping the latest `capacity` values (RAC `+replaySubjectWithCapacity:`);
    /// `nil` keeps all (RAC `RACReplaySubjectUnlimitedCapacity`).
    public init(capacity: Int? = nil) {
        precondition(capacity.map { $0 >= 0 } ?? true, "capacity must not be negative")
        let core = ReplayCore<Value, Failure>(capacity: capacity)
        self.core = core
        signal = Signal { subscriber in core.subscribe(subscriber) }
    }

    /// Nothing can be sent once the subject is gone: its subscribers are let go (a later
    /// subscriber still gets the replay).
    deinit { core.detachAll() }

    /// Records and sends a value (RAC `sendNext:`).
    public func sendNext(_ value: Value) { core.sendNext(value) }

    /// Records and sends an error; the subject ends (RAC `sendError:`).
    public func sendError(_ error: Failure) {
        core.terminate(with: .error(error))
        feeds.dispose()
    }

    /// Records and sends completion; the subject ends (RAC `sendCompleted`).
    public func sendCompleted() {
        core.terminate(with: .completed)
        feeds.dispose()
    }

    /// Sends any event.
    public func send(_ event: Event<Value, Failure>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }

    /// The values that a new subscriber would receive, oldest first.
    public var replayedValues: [Value] { core.withLock { _ in core.values } }
}

/// A replay subject's values, terminal event and subscribers' gates, shared by the subject and its
/// signal. `values` and `terminal` are guarded by the list's lock.
final class ReplayCore<Value: Sendable, Failure: Error>: SubscriberList, @unchecked Sendable {
    let capacity: Int?
    @exclusivity(unchecked) nonisolated(unsafe) var values: [Value] = []
    @exclusivity(unchecked) nonisolated(unsafe) var terminal: Event<Value, Failure>?

    init(capacity: Int?) {
        self.capacity = capacity
    }

    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> (any Disposable)? {
        let gate = ReplayGate(subscriber)
        _ = gate.join(self)  // a new gate: always joins
        let (values, terminal, isLive) = withLock { members -> ([Value], Event<Value, Failure>?, Bool) in
            guard !members.isClosed else { return (self.values, self.terminal, false) }
            guard !members.isDetached else { return (self.values, nil, false) }
            members.insert(gate)
            return (self.values, nil, true)
        }
        for value in values {
            if subscriber.isStopped { break }
            subscriber.sendNext(value)
        }
        if let terminal { subscriber.send(terminal) }
        gate.finishReplay()
        return isLive ? gate : nil
    }

    func sendNext(_ value: Value) {
        let entries = withLock { members -> ContiguousArray<Subscription?> in
            guard !members.isClosed else { return [] }
            if capacity != 0 {
                values.append(value)
                if let capacity, values.count > capacity {
                    values.removeFirst(values.count - capacity)
                }
            }
            return members.entries
        }
        for entry in entries {
            guard let entry else { continue }
            unsafeDowncast(entry, to: ReplayGate<Value, Failure>.self).send(.next(value))
        }
    }

    func terminate(with event: Event<Value, Failure>) {
        let gates = withLock { members -> [Subscription] in
            guard !members.isClosed else { return [] }
            terminal = event
            members.isClosed = true
            return members.removeAll()
        }
        for gate in gates { unsafeDowncast(gate, to: ReplayGate<Value, Failure>.self).send(event) }
    }
}

/// One subscriber's place in a replay subject's list: holds back live events until the
/// subscriber's replay has been delivered. Disposing it (the subscriber does, when it stops)
/// leaves the list.
final class ReplayGate<Value: Sendable, Failure: Error>: Subscription, @unchecked Sendable {
    private struct State {
        var isReplaying = true
        var held: [Event<Value, Failure>] = []
    }

    private let state = Lock(State())
    let subscriber: Subscriber<Value, Failure>

    init(_ subscriber: Subscriber<Value, Failure>) {
        self.subscriber = subscriber
    }

    func send(_ event: Event<Value, Failure>) {
        let deliverNow = state.withLock { state -> Bool in
            if state.isReplaying { state.held.append(event) }
            return !state.isReplaying
        }
        if deliverNow { subscriber.send(event) }
    }

    /// Delivers what was held back during the replay, then lets live events through.
    func finishReplay() {
        while true {
            let batch = state.withLock { state -> [Event<Value, Failure>] in
                if state.held.isEmpty { state.isReplaying = false }
                defer { state.held = [] }
                return state.held
            }
            if batch.isEmpty { return }
            batch.forEach(subscriber.send)
        }
    }
}
