import Locking

extension Signal {
    /// Sends the first `count` values, then completes (RAC `take:`). `take(0)` completes at once.
    public func take(_ count: Int) -> Signal {
        precondition(count >= 0, "take(_:) needs a count of at least 0")
        guard count > 0 else { return .empty }
        return Signal { subscriber in
            let taken = Lock(0)
            return subscribe(Subscriber { event in
                switch event {
                case .next(let value):
                    let index = taken.withLock { taken -> Int in
                        taken += 1
                        return taken
                    }
                    guard index <= count else { return }
                    subscriber.sendNext(value)
                    if index == count { subscriber.sendCompleted() }
                default:
                    subscriber.send(event)
                }
            })
        }
    }

    /// Drops the first `count` values (RAC `skip:`).
    public func skip(_ count: Int) -> Signal {
        precondition(count >= 0, "skip(_:) needs a count of at least 0")
        guard count > 0 else { return self }
        return Signal { subscriber in
            let skipped = Lock(0)
            return subscribe(Subscriber { event in
                if case .next = event {
                    let drop = skipped.withLock { skipped -> Bool in
                        guard skipped < count else { return false }
                        skipped += 1
                        return true
                    }
                    if drop { return }
                }
                subscriber.send(event)
            })
        }
    }

    /// Sends values while `predicate` holds; completes at the first value for which it does not
    /// (RAC `takeWhileBlock:`).
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { subscriber in
            subscribe(Subscriber { event in
                if case .next(let value) = event, !predicate(value) {
                    subscriber.sendCompleted()
                } else {
                    subscriber.send(event)
                }
            })
        }
    }

    /// Drops values while `predicate` holds, then sends all the rest (RAC `skipWhileBlock:`).
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { subscriber in
            let skipping = Lock(true)
            return subscribe(Subscriber { event in
                if case .next(let value) = event {
                    let drop = skipping.withLock { skipping -> Bool in
                        if skipping && !predicate(value) { skipping = false }
                        return skipping
                    }
                    if drop { return }
                }
                subscriber.send(event)
            })
        }
    }

    /// Sends values until `trigger` sends a value or completes, then completes (RAC `takeUntil:`).
    /// An error of `trigger` is ignored, as in RAC.
    public func take<TriggerValue, TriggerFailure>(until trigger: Signal<TriggerValue, TriggerFailure>) -> Signal {
        Signal { subscriber in
            let triggerSubscription = trigger.subscribe(
                next: { _ in subscriber.sendCompleted() },
                completed: { subscriber.sendCompleted() })
            subscriber.add(triggerSubscription)
            if subscriber.isStopped { return nil }
            return subscribe(subscriber.forwarder)
        }
    }
}

extension Subscriber {
    /// A new subscriber that forwards every event to this one: what an operator subscribes
    /// upstream with when it only adds behaviour around the subscription.
    var forwarder: Subscriber {
        Subscriber { [self] event in send(event) }
    }
}
