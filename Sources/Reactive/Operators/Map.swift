extension Signal {
    /// Transforms every value with `transform` (RAC `map:`).
    @inlinable
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure> { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): subscriber.sendNext(transform(value))
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
