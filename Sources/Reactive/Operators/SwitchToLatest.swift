extension Signal {
    /// Sends the values of the latest inner signal only: each new inner signal disposes the
    /// previous one (RAC `switchToLatest`). Completes once this signal and the latest inner signal
    /// have completed; an error from either ends it.
    @inlinable
    public func switchToLatest<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(SwitchState(), subscriber)
            subscriber.add(
                ActionDisposable {
                    serializer.update { state, _ in state.replaceCurrent(with: nil) }?.dispose()
                }
            )
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    if let value = innerSignal.justValue {
                        // A `just` inner signal would send its value and complete the moment it
                        // is subscribed: deliver the value without subscribing to it.
                        let previous = serializer.update { state, outbox -> (any Disposable)? in
                            guard !state.isDisposed else { return nil }
                            guard let previous = state.current else {
                                outbox.append(.next(value))
                                return nil
                            }
                            state.current = nil
                            return previous
                        }
                        // As when subscribing: the previous inner is disposed before the value.
                        if let previous {
                            previous.dispose()
                            serializer.send(.next(value))
                        }
                        return
                    }
                    // Only the current inner subscription's events pass: one that was replaced
                    // may still be delivering on another thread.
                    let inner = Subscriber<Inner, Failure>(observingWithSubscriber: { inner, innerEvent in
                        serializer.update { state, outbox in
                            guard state.current === inner else { return }
                            if case .completed = innerEvent {
                                state.current = nil  // ended: nothing left to dispose
                                if state.isOuterCompleted { outbox.append(.completed) }
                            } else {
                                outbox.append(innerEvent)
                            }
                        }
                    })
                    serializer.update { state, _ in state.replaceCurrent(with: inner) }?.dispose()
                    innerSignal.subscribe(inner)
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterCompleted = true
                        if state.current == nil { outbox.append(.completed) }
                    }
                }
            }
            return subscribe(outer, for: subscriber)
        }
    }
}

@usableFromInline
struct SwitchState: Sendable {
    @usableFromInline var isOuterCompleted = false
    /// The latest inner subscription while it runs: until it completes, is replaced, or the whole
    /// subscription is disposed.
    @usableFromInline var current: (any Disposable)?
    /// Set once disposed: an inner subscription installed after that is disposed at once.
    @usableFromInline var isDisposed = false
    @usableFromInline init() {}

    /// Installs `next` (or, with `nil`, ends the switching) and returns what must be disposed:
    /// the previous inner subscription, or `next` itself if the switch was already disposed.
    @inlinable
    mutating func replaceCurrent(with next: (any Disposable)?) -> (any Disposable)? {
        if isDisposed { return next }
        if next == nil { isDisposed = true }
        defer { current = next }
        return current
    }
}
