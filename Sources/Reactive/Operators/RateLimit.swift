extension Signal {
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
            return subscribe(upstream, for: subscriber)
        }
    }
}

struct RateLimitState<Value: Sendable>: Sendable {
    var pending: Value?
    var lastSent: Duration?
    var isTimerRunning = false
}
