import Locking

extension Signal {
    /// Drops values while `predicate` holds, then sends all the rest (RAC `skipWhileBlock:`).
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { subscriber in
            let skipping = Lock(true)
            return subscribe(
                Subscriber { event in
                    if case .next(let value) = event, skipping.withLock({ $0 }) {
                        // The predicate runs outside the lock (it may send into this signal's source).
                        if predicate(value) { return }
                        skipping.withLock { $0 = false }
                    }
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }
}
