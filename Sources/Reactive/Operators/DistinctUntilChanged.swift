import Locking

extension Signal {
    /// Drops each value that `isEquivalent` says equals the one before it; the first value always
    /// passes (RAC `distinctUntilChanged`, with a comparer).
    @inlinable
    public func distinctUntilChanged(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        Signal { subscriber in
            let previous = Lock<Value?>(nil)
            return subscribe(
                Subscriber { event in
                    if case .next(let value) = event {
                        // The comparer runs outside the lock (it may send into this signal's source).
                        let isRepeat = previous.withLock { $0 }.map { isEquivalent($0, value) } ?? false
                        previous.withLock { $0 = value }
                        if isRepeat { return }
                    }
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops each value equal to the one before it; the first value always passes
    /// (RAC `distinctUntilChanged`).
    @inlinable
    public func distinctUntilChanged() -> Signal {
        distinctUntilChanged(==)
    }
}
