extension Signal {
    /// Limits the rate: sends a value at once if none was sent in the last `interval`; otherwise
    /// holds the latest and sends it when `interval` has passed since the last one sent. A value
    /// still held when the signal ends is dropped. This is what Rx and ReactiveSwift call
    /// `throttle`; it is named differently here because RAC's `throttle` is a debounce.
    ///
    /// Values leave in the order they came: a value let through at once replaces the held one and
    /// cancels its timer, so a timer never sends an older value after a newer one at one instant.
    public func rateLimit(_ interval: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            let serializer = Serializer(RateLimitState<Value>(), subscriber)
            let timer = SerialDisposable()
            subscriber.add(timer)
            @Sendable func flush(_ generation: UInt64) {
                serializer.update { state, outbox in
                    // A timer that a value let through at once has overtaken sends nothing.
                    guard state.timerGeneration == generation, let pending = state.pending else { return }
                    state.timerGeneration = nil
                    state.pending = nil
                    state.lastSent = scheduler.now
                    outbox.append(.next(pending))
                }
            }
            let upstream = Subscriber<Value, Failure> { event in
                switch event {
                case .next(let value):
                    let decision = serializer.update { state, outbox in
                        let (sendsNow, decision) = state.decide(value, at: scheduler.now, interval: interval)
                        if sendsNow { outbox.append(.next(value)) }
                        return decision
                    }
                    switch decision {
                    case .keepTimer: break
                    case .cancelTimer: timer.inner = nil
                    case .startTimer(let wait, let generation):
                        timer.inner = scheduler.schedule(after: wait) { flush(generation) }
                    }
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

/// What ``Signal/rateLimit(_:on:)`` holds between values, changed only inside its serializer.
struct RateLimitState<Value: Sendable>: Sendable {
    enum TimerDecision {
        case keepTimer
        case cancelTimer
        case startTimer(Duration, generation: UInt64)
    }

    var pending: Value?
    var lastSent: Duration?
    /// The generation of the running timer, `nil` when none runs; a timer acts only while its
    /// generation is current.
    var timerGeneration: UInt64?
    private var generations: UInt64 = 0

    /// Whether `value` is sent now (else it is held), and what becomes of the timer — decided in
    /// one step.
    mutating func decide(_ value: Value, at now: Duration, interval: Duration) -> (sendsNow: Bool, TimerDecision) {
        if let last = lastSent, now - last < interval {
            pending = value
            if timerGeneration != nil { return (false, .keepTimer) }
            generations &+= 1
            timerGeneration = generations
            return (false, .startTimer(interval - (now - last), generation: generations))
        }
        lastSent = now
        pending = nil
        guard timerGeneration != nil else { return (true, .keepTimer) }
        timerGeneration = nil
        return (true, .cancelTimer)
    }
}
