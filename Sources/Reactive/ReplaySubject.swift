/// A subject that replays past events to new subscribers: RAC's `RACReplaySubject`.
///
/// It keeps up to `capacity` of the latest values (`nil` for all of them) and its terminal event;
/// a new subscriber first receives those, in order, then live events. With capacity 0 it replays
/// only the terminal event.
///
/// Ordering is exact even when a subscriber arrives on one thread while another sends: events sent
/// during a replay are held back for that subscriber and delivered right after it. No lock is held
/// while a subscriber runs.
public final class ReplaySubject<Value: Sendable, Failure: Error>: SubjectProtocol, BagOwner {
    private struct State {
        var values: [Value] = []
        var terminal: Event<Value, Failure>?
        var subscribers = SubscriberBag<ReplayGate<Value, Failure>>()
    }

    private let state = Lock(State())
    /// The most values replayed, or `nil` for no limit.
    public let capacity: Int?

    /// Creates a replay subject keeping the latest `capacity` values (RAC `+replaySubjectWithCapacity:`);
    /// `nil` keeps all (RAC `RACReplaySubjectUnlimitedCapacity`).
    public init(capacity: Int? = nil) {
        precondition(capacity.map { $0 >= 0 } ?? true, "capacity must not be negative")
        self.capacity = capacity
    }

    /// The subject as a signal: replays what it holds, then delivers live events.
    public var signal: Signal<Value, Failure> {
        Signal { [self] subscriber in
            let gate = ReplayGate(subscriber)
            let subscription = BagSubscription(owner: self)
            let (values, terminal, isLive) = state.withLock { state -> ([Value], Event<Value, Failure>?, Bool) in
                guard state.terminal == nil else { return (state.values, state.terminal, false) }
                state.subscribers.insert(gate, token: subscription)
                return (state.values, nil, true)
            }
            for value in values {
                if subscriber.isStopped { break }
                subscriber.sendNext(value)
            }
            if let terminal { subscriber.send(terminal) }
            gate.finishReplay()
            return isLive ? subscription : nil
        }
    }

    /// Records and sends a value (RAC `sendNext:`).
    public func sendNext(_ value: Value) {
        let entries = state.withLock { state -> ContiguousArray<SubscriberBag<ReplayGate<Value, Failure>>.Entry> in
            guard state.terminal == nil else { return [] }
            if capacity != 0 {
                state.values.append(value)
                if let capacity, state.values.count > capacity {
                    state.values.removeFirst(state.values.count - capacity)
                }
            }
            return state.subscribers.entries
        }
        for entry in entries { entry.element?.send(.next(value)) }
    }

    /// Records and sends an error; the subject ends (RAC `sendError:`).
    public func sendError(_ error: Failure) { terminate(with: .error(error)) }

    /// Records and sends completion; the subject ends (RAC `sendCompleted`).
    public func sendCompleted() { terminate(with: .completed) }

    /// Sends any event.
    public func send(_ event: Event<Value, Failure>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }

    /// The values that a new subscriber would receive, oldest first.
    public var replayedValues: [Value] { state.withLock { $0.values } }

    func removeSubscriber(_ token: BagToken) {
        state.withLock { _ = $0.subscribers.remove(token) }
    }

    private func terminate(with event: Event<Value, Failure>) {
        let gates = state.withLock { state -> [ReplayGate<Value, Failure>] in
            guard state.terminal == nil else { return [] }
            state.terminal = event
            return state.subscribers.removeAll()
        }
        for gate in gates { gate.send(event) }
    }
}

/// Holds back live events for a subscriber until its replay has been delivered.
final class ReplayGate<Value: Sendable, Failure: Error>: Sendable {
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
