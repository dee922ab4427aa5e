import Locking

extension Signal {
    /// Sends the first `count` values, then completes (RAC `take:`). `take(0)` completes at once.
    public func take(_ count: Int) -> Signal {
        precondition(count >= 0, "take(_:) needs a count of at least 0")
        guard count > 0 else { return .empty }
        return Signal { subscriber in
            let taken = Lock(0)
            return subscribe(
                Subscriber { event in
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
                },
                for: subscriber
            )
        }
    }
}
