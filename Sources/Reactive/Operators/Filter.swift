extension Signal {
    /// Passes on only the values for which `isIncluded` returns true (RAC `filter:`).
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): if isIncluded(value) { subscriber.sendNext(value) }
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
