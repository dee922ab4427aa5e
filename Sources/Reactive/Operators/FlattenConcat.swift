extension Signal {
    /// `flatten(.concat)`: one inner signal at a time, in order (RAC `concat` of a signal of signals).
    func concatInner<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
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
            return subscribe(outer, for: subscriber)
        }
    }
}

struct ConcatState<Value: Sendable, Failure: Error>: Sendable {
    var waiting: [Signal<Value, Failure>] = []
    var isInnerActive = false
    var isOuterCompleted = false
}
