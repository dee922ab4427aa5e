import Locking

extension Signal {
    /// Drops each value that `isEquivalent` says equals the one before it; the first value always
    /// passes (RAC `distinctUntilChanged`, with a comparer).
    public func distinctUntilChanged(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal {
        Signal { subscriber in
            let previous = Lock<Value?>(nil)
            return subscribe(Subscriber { event in
                if case .next(let value) = event {
                    let isRepeat = previous.withLock { previous -> Bool in
                        defer { previous = value }
                        return previous.map { isEquivalent($0, value) } ?? false
                    }
                    if isRepeat { return }
                }
                subscriber.send(event)
            })
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops each value equal to the one before it; the first value always passes
    /// (RAC `distinctUntilChanged`).
    public func distinctUntilChanged() -> Signal {
        distinctUntilChanged(==)
    }
}
