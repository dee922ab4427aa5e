/// How the flattening operators combine the inner signals they make.
public enum FlattenStrategy: Sendable {
    /// Subscribe to every inner signal at once and merge their values (RAC `flattenMap:`).
    case merge
    /// Subscribe to one inner signal at a time, in order (RAC `concat` of a signal of signals).
    case concat
    /// Subscribe only to the latest inner signal, disposing the previous one (RAC `switchToLatest`).
    case latest
}

extension Signal {
    /// Maps each value to a signal and flattens those signals with `strategy`
    /// (ReactiveSwift's `flatMap(_:_:)`; RAC `flattenMap:` for `.merge`).
    public func flatMap<NewValue: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        map(transform).flatten(strategy)
    }

    /// Maps each value to a signal and merges them all (RAC `flattenMap:`). Completes once this
    /// signal and every inner signal have completed.
    public func flattenMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.merge, transform)
    }

    /// Maps each value to a signal and subscribes to them one after another, in order (RAC
    /// `concat` after `map:`).
    public func concatMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.concat, transform)
    }

    /// Flattens a signal of signals with `strategy`.
    public func flatten<Inner: Sendable>(_ strategy: FlattenStrategy) -> Signal<Inner, Failure>
    where Value == Signal<Inner, Failure> {
        switch strategy {
        case .merge: mergeInner()
        case .concat: concatInner()
        case .latest: switchToLatest()
        }
    }

    /// Sends the values of the latest inner signal only: each new inner signal disposes the
    /// previous one (RAC `switchToLatest`). Completes once this signal and the latest inner signal
    /// have completed; an error from either ends it.
    @inlinable
    public func switchToLatest<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(SwitchState(), subscriber)
            subscriber.add(ActionDisposable {
                serializer.update { state, _ in state.replaceCurrent(with: nil) }?.dispose()
            })
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
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
            return subscribe(outer)
        }
    }

    private func mergeInner<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(1, subscriber)  // active signals: the outer one, then each inner
            let inners = CompoundDisposable()
            subscriber.add(inners)
            @Sendable func finishOne(_ active: inout Int, _ outbox: inout [Event<Inner, Failure>]) {
                active -= 1
                if active == 0 { outbox.append(.completed) }
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    serializer.update { active, _ in active += 1 }
                    // Each inner subscription leaves the compound disposable when it ends, so a
                    // long-lived merge does not accumulate finished subscriptions.
                    let slot = SerialDisposable()
                    let forwarding = Subscriber<Inner, Failure> { innerEvent in
                        if innerEvent.isTerminating { inners.remove(slot) }
                        serializer.update { active, outbox in
                            if case .completed = innerEvent { finishOne(&active, &outbox) } else { outbox.append(innerEvent) }
                        }
                    }
                    slot.inner = forwarding
                    inners.add(slot)
                    innerSignal.subscribe(forwarding)
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { active, outbox in finishOne(&active, &outbox) }
                }
            }
            return subscribe(outer)
        }
    }

    private func concatInner<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(ConcatState<Inner, Failure>(), subscriber)
            let current = SerialDisposable()
            subscriber.add(current)
            /// Subscribes to `signal`; when it completes, to the next one waiting, or completes.
            @Sendable func start(_ signal: Signal<Inner, Failure>) {
                let inner = Subscriber<Inner, Failure> { innerEvent in
                    guard case .completed = innerEvent else {
                        serializer.send(innerEvent)
                        return
                    }
                    let next = serializer.update { state, outbox -> Signal<Inner, Failure>? in
                        if !state.waiting.isEmpty { return state.waiting.removeFirst() }
                        state.isInnerActive = false
                        if state.isOuterCompleted { outbox.append(.completed) }
                        return nil
                    }
                    if let next, !subscriber.isStopped { start(next) }
                }
                current.inner = inner
                signal.subscribe(inner)
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    let startNow = serializer.update { state, _ -> Bool in
                        if state.isInnerActive {
                            state.waiting.append(innerSignal)
                            return false
                        }
                        state.isInnerActive = true
                        return true
                    }
                    if startNow { start(innerSignal) }
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterCompleted = true
                        if !state.isInnerActive { outbox.append(.completed) }
                    }
                }
            }
            return subscribe(outer)
        }
    }
}

extension Signal {
    /// Follows `then` while `condition`'s latest value is true and `else` while it is false,
    /// switching whenever it changes (RAC `+if:then:else:`).
    public static func `if`(
        _ condition: Signal<Bool, Failure>, then trueSignal: Signal, else falseSignal: Signal
    ) -> Signal {
        condition.map { $0 ? trueSignal : falseSignal }.switchToLatest()
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


struct ConcatState<Value: Sendable, Failure: Error>: Sendable {
    var waiting: [Signal<Value, Failure>] = []
    var isInnerActive = false
    var isOuterCompleted = false
}
