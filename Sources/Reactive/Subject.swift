/// A hot signal that you send events into by hand: RAC's `RACSubject`.
///
/// Events go to the subscribers present at the time of sending, in subscription order.
///
/// **Differs from RAC:** a `RACSubject` forgets that it ended, so a late subscriber waits forever (a
/// known trap). This subject remembers its terminal event: a subscriber arriving after completion or
/// an error receives that event at once.
///
/// Thread safety: every method may be called from any thread. Sends are not serialized by the
/// subject: as with RAC, the sender must not send concurrently from several threads. No lock is held
/// while a subscriber runs, so a subscriber may send into the subject it receives from (the nested
/// event is delivered at once, before the outer send returns to the remaining subscribers) without
/// deadlock.
public final class Subject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let core: SubjectCore<Value, Failure>

    /// The subject as a signal to subscribe to. Made once; it keeps the subject's subscriber list
    /// alive, not the subject itself.
    public let signal: Signal<Value, Failure>

    /// Creates a subject with no subscribers (RAC `+subject`).
    public init() {
        let core = SubjectCore<Value, Failure>()
        self.core = core
        signal = Signal { subscriber in core.subscribe(subscriber) }
    }

    /// Sends a value to every current subscriber (RAC `sendNext:`).
    @inlinable
    public func sendNext(_ value: Value) { core.sendNext(value) }

    /// Sends an error to every current subscriber and ends the subject (RAC `sendError:`).
    public func sendError(_ error: Failure) { core.terminate(with: .error(error)) }

    /// Sends completion to every current subscriber and ends the subject (RAC `sendCompleted`).
    public func sendCompleted() { core.terminate(with: .completed) }

    /// Sends any event.
    public func send(_ event: Event<Value, Failure>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.state.withLock { $0.subscribers.count } }
}

/// A subject's subscribers and terminal event, shared by the subject and its signal.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: Sendable, BagOwner {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var subscribers = SubscriberBag<Subscriber<Value, Failure>>()
        @usableFromInline var terminal: Event<Value, Failure>?
        @usableFromInline init() {}
    }

    @usableFromInline let state = Lock(State())

    init() {}

    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> (any Disposable)? {
        let subscription = BagSubscription(owner: self)
        let terminal = state.withLock { state -> Event<Value, Failure>? in
            guard state.terminal == nil else { return state.terminal }
            state.subscribers.insert(subscriber, token: subscription)
            return nil
        }
        if let terminal {
            subscriber.send(terminal)
            return nil
        }
        return subscription
    }

    @inlinable
    func sendNext(_ value: Value) {
        let entries = state.withLock { $0.subscribers.entries }
        for entry in entries {
            entry.element?.sendNext(value)
        }
    }

    func terminate(with event: Event<Value, Failure>) {
        let subscribers = state.withLock { state -> [Subscriber<Value, Failure>] in
            guard state.terminal == nil else { return [] }
            state.terminal = event
            return state.subscribers.removeAll()
        }
        for subscriber in subscribers {
            subscriber.send(event)
        }
    }

    func removeSubscriber(_ token: BagToken) {
        state.withLock { _ = $0.subscribers.remove(token) }
    }
}
