import Locking

extension Signal {
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
}
