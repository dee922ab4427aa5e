import Locking

extension Signal {
    /// Drops the first `count` values (RAC `skip:`).
    public func skip(_ count: Int) -> Signal {
        precondition(count >= 0, "skip(_:) needs a count of at least 0")
        guard count > 0 else { return self }
        return Signal { subscriber in
            let skipped = Lock(0)
            return subscribe(
                Subscriber { event in
                    if case .next = event {
                        let drop = skipped.withLock { skipped -> Bool in
                            guard skipped < count else { return false }
                            skipped += 1
                            return true
                        }
                        if drop { return }
                    }
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }
}
