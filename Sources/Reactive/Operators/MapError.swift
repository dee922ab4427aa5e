extension Signal {
    /// Transforms the error (no RAC equivalent: RAC's errors are untyped `NSError`s).
    @inlinable
    public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): subscriber.sendNext(value)
                    case .error(let error): subscriber.sendError(transform(error))
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
