extension Signal {
    /// Subscribes to at most `limit` inner signals at a time (`nil`: to every one at once), in the
    /// order they arrive; the others wait their turn (RAC `flatten:`, whose `flatten` is
    /// `flatten:0` and whose `concat` of a signal of signals is `flatten:1`). Completes once this
    /// signal and every inner signal have completed; an error from any ends it, and no inner signal
    /// is subscribed after that.
    @inlinable
    func flatten<Inner: Sendable>(limit: Int?) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(FlattenState<Inner, Failure>(), subscriber)
            let inners = CompoundDisposable()
            subscriber.add(inners)
            /// Ends a running inner signal: the next waiting one takes its slot, and is returned to
            /// be started; with none waiting, the flattening completes if the outer signal has.
            @Sendable func finishInner() -> Signal<Inner, Failure>? {
                serializer.update { state, outbox -> Signal<Inner, Failure>? in
                    if let next = state.nextWaiting() { return next }
                    state.active -= 1
                    if state.isFinished { outbox.append(.completed) }
                    return nil
                }
            }
            /// Subscribes to `signal`, then to each waiting signal as running ones complete.
            @Sendable func start(_ signal: Signal<Inner, Failure>) {
                var signal = signal
                // `just` signals send their value and complete the moment they are subscribed:
                // deliver the value without subscribing, and go on with the next waiting one.
                while let value = signal.justValue {
                    guard !subscriber.isStopped else { return }
                    serializer.send(.next(value))
                    guard let next = finishInner() else { return }
                    signal = next
                }
                guard !subscriber.isStopped else { return }
                // Each inner subscription leaves the compound disposable when it ends, so a
                // long-lived flattening does not accumulate finished subscriptions.
                let slot = SerialDisposable()
                let inner = Subscriber<Inner, Failure> { innerEvent in
                    guard case .completed = innerEvent else {
                        if innerEvent.isTerminating { inners.remove(slot) }
                        serializer.send(innerEvent)
                        return
                    }
                    inners.remove(slot)
                    if let next = finishInner() { start(next) }
                }
                slot.inner = inner
                inners.add(slot)
                signal.subscribe(inner)
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    if let value = innerSignal.justValue {
                        // Delivered at once unless it has to wait its turn (signals wait only
                        // while every slot is taken), without subscribing to it (see `start`).
                        serializer.update { state, outbox in
                            if let limit, state.active >= limit {
                                state.waiting.append(innerSignal)
                            } else {
                                outbox.append(.next(value))
                            }
                        }
                        return
                    }
                    let startNow = serializer.update { state, _ -> Bool in
                        if let limit, state.active >= limit {
                            state.waiting.append(innerSignal)
                            return false
                        }
                        state.active += 1
                        return true
                    }
                    if startNow { start(innerSignal) }
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterCompleted = true
                        if state.isFinished { outbox.append(.completed) }
                    }
                }
            }
            return subscribe(outer, for: subscriber)
        }
    }
}

/// The state of a limited flattening: running inner subscriptions and the signals waiting.
@usableFromInline
struct FlattenState<Value: Sendable, Failure: Error>: Sendable {
    /// Inner subscriptions running (a waiting signal handed over to start counts as running).
    @usableFromInline var active = 0
    @usableFromInline var waiting: [Signal<Value, Failure>] = []
    /// The first signal of `waiting` not yet started: removing from the front costs nothing, and
    /// the array is emptied, keeping its storage, once every waiting signal has started.
    @usableFromInline var waitingHead = 0
    @usableFromInline var isOuterCompleted = false
    @usableFromInline init() {}

    @inlinable
    var isFinished: Bool { isOuterCompleted && active == 0 && waitingHead == waiting.count }

    /// The next waiting signal, which takes over the slot of one that completed.
    @inlinable
    mutating func nextWaiting() -> Signal<Value, Failure>? {
        guard waitingHead < waiting.count else { return nil }
        defer {
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
        }
        return waiting[waitingHead]
    }
}
