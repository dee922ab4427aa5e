extension Signal {
    /// RAC's throttle, which other libraries call *debounce*: a value is sent only once `interval`
    /// has passed with no newer value; every newer value replaces the pending one. On completion
    /// the pending value is sent at once, then completion; an error drops it (RAC `throttle:`).
    ///
    /// Not Rx's or ReactiveSwift's `throttle`, which limits the rate instead: that one is
    /// ``rateLimit(_:on:)`` here.
    public func throttle(_ interval: Duration, on scheduler: any Scheduler) -> Signal {
        throttle(interval, on: scheduler, valuesPassing: { _ in true })
    }

    /// RAC's throttle applied only to values that pass `predicate`; a value that does not pass is
    /// sent at once and discards the pending one (RAC `throttle:valuesPassingTest:`).
    public func throttle(
        _ interval: Duration,
        on scheduler: any Scheduler,
        valuesPassing predicate: @escaping @Sendable (Value) -> Bool
    ) -> Signal {
        Signal { subscriber in
            let serializer = Serializer(ThrottleState<Value>(), subscriber)
            let timer = SerialDisposable()
            subscriber.add(timer)
            let upstream = Subscriber<Value, Failure> { event in
                switch event {
                case .next(let value):
                    let shouldThrottle = predicate(value)
                    let generation = serializer.update { state, outbox -> UInt64 in
                        state.generation &+= 1
                        if shouldThrottle {
                            state.pending = value
                        } else {
                            state.pending = nil
                            outbox.append(.next(value))
                        }
                        return state.generation
                    }
                    guard shouldThrottle else {
                        timer.inner = nil
                        return
                    }
                    timer.inner = scheduler.schedule(after: interval) {
                        serializer.update { state, outbox in
                            guard state.generation == generation, let pending = state.pending else { return }
                            state.pending = nil
                            outbox.append(.next(pending))
                        }
                    }
                case .error(let error):
                    timer.dispose()
                    serializer.update { state, outbox in
                        state.pending = nil
                        outbox.append(.error(error))
                    }
                case .completed:
                    timer.dispose()
                    serializer.update { state, outbox in
                        if let pending = state.pending { outbox.append(.next(pending)) }
                        state.pending = nil
                        outbox.append(.completed)
                    }
                }
            }
            return subscribe(upstream, for: subscriber)
        }
    }
}

struct ThrottleState<Value: Sendable>: Sendable {
    var pending: Value?
    var generation: UInt64 = 0
}
