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
public final class Subject<Value: Sendable, Failure: Error>: Sendable, BagOwner {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var subscribers = SubscriberBag<Subscriber<Value, Failure>>()
        @usableFromInline var terminal: Event<Value, Failure>?
        @usableFromInline init() {}
    }

    @usableFromInline let state = Lock(State())

    /// Creates a subject with no subscribers (RAC `+subject`).
    public init() {}

    /// The subject as a signal to subscribe to.
    public var signal: Signal<Value, Failure> {
        Signal { [self] subscriber in
            let (token, terminal) = state.withLock { state -> (BagToken?, Event<Value, Failure>?) in
                state.terminal == nil ? (state.subscribers.insert(subscriber), nil) : (nil, state.terminal)
            }
            if let terminal { subscriber.send(terminal) }
            return token.map { BagSubscription(owner: self, token: $0) }
        }
    }

    /// Sends a value to every current subscriber (RAC `sendNext:`).
    @inlinable
    public func sendNext(_ value: Value) {
        let entries = state.withLock { $0.subscribers.entries }
        for entry in entries {
            entry.element?.sendNext(value)
        }
    }

    /// Sends an error to every current subscriber and ends the subject (RAC `sendError:`).
    public func sendError(_ error: Failure) {
        terminate(with: .error(error))
    }

    /// Sends completion to every current subscriber and ends the subject (RAC `sendCompleted`).
    public func sendCompleted() {
        terminate(with: .completed)
    }

    /// Sends any event.
    public func send(_ event: Event<Value, Failure>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func removeSubscriber(_ token: BagToken) {
        state.withLock { _ = $0.subscribers.remove(token) }
    }

    private func terminate(with event: Event<Value, Failure>) {
        let subscribers = state.withLock { state -> [Subscriber<Value, Failure>] in
            guard state.terminal == nil else { return [] }
            state.terminal = event
            return state.subscribers.removeAll()
        }
        for subscriber in subscribers {
            subscriber.send(event)
        }
    }
}
