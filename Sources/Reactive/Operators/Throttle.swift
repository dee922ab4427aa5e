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
        _ interval: Duration, on scheduler: any Scheduler, valuesPassing predicate: @escaping @Sendable (Value) -> Bool
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
            return subscribe(upstream)
        }
    }

    /// Limits the rate: sends a value at once if none was sent in the last `interval`; otherwise
    /// holds the latest and sends it when `interval` has passed since the last one sent. A value
    /// still held when the signal ends is dropped. This is what Rx and ReactiveSwift call
    /// `throttle`; it is named differently here because RAC's `throttle` is a debounce.
    public func rateLimit(_ interval: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            let serializer = Serializer(RateLimitState<Value>(), subscriber)
            let timer = SerialDisposable()
            subscriber.add(timer)
            @Sendable func flush() {
                serializer.update { state, outbox in
                    state.isTimerRunning = false
                    guard let pending = state.pending else { return }
                    state.pending = nil
                    state.lastSent = scheduler.now
                    outbox.append(.next(pending))
                }
            }
            let upstream = Subscriber<Value, Failure> { event in
                switch event {
                case .next(let value):
                    let now = scheduler.now
                    let wait = serializer.update { state, outbox -> Duration? in
                        if let last = state.lastSent, now - last < interval {
                            state.pending = value
                            if state.isTimerRunning { return nil }
                            state.isTimerRunning = true
                            return interval - (now - last)
                        }
                        state.lastSent = now
                        outbox.append(.next(value))
                        return nil
                    }
                    if let wait { timer.inner = scheduler.schedule(after: wait, flush) }
                default:
                    timer.dispose()
                    serializer.update { state, outbox in
                        state.pending = nil
                        outbox.append(event)
                    }
                }
            }
            return subscribe(upstream)
        }
    }
}

struct ThrottleState<Value: Sendable>: Sendable {
    var pending: Value?
    var generation: UInt64 = 0
}

struct RateLimitState<Value: Sendable>: Sendable {
    var pending: Value?
    var lastSent: Duration?
    var isTimerRunning = false
}
