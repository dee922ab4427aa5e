extension Signal {
    /// Transforms every value with `transform` (RAC `map:`).
    @inlinable
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure> { subscriber in
            subscribe(Subscriber { event in
                switch event {
                case .next(let value): subscriber.sendNext(transform(value))
                case .error(let error): subscriber.sendError(error)
                case .completed: subscriber.sendCompleted()
                }
            })
        }
    }

    /// Replaces every value with `value` (RAC `mapReplace:`).
    @inlinable
    public func mapReplace<NewValue: Sendable>(_ value: NewValue) -> Signal<NewValue, Failure> {
        map { _ in value }
    }

    /// Transforms the error (no RAC equivalent: RAC's errors are untyped `NSError`s).
    @inlinable
    public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { subscriber in
            subscribe(Subscriber { event in
                switch event {
                case .next(let value): subscriber.sendNext(value)
                case .error(let error): subscriber.sendError(transform(error))
                case .completed: subscriber.sendCompleted()
                }
            })
        }
    }

    /// Splits each tuple into the arguments of `reduce` (RAC `reduceEach:`, which unpacks a `RACTuple`).
    @inlinable
    public func reduceEach<A, B, Result: Sendable>(
        _ reduce: @escaping @Sendable (A, B) -> Result
    ) -> Signal<Result, Failure> where Value == (A, B) {
        map { reduce($0.0, $0.1) }
    }

    /// Splits each triple into the arguments of `reduce` (RAC `reduceEach:`).
    @inlinable
    public func reduceEach<A, B, C, Result: Sendable>(
        _ reduce: @escaping @Sendable (A, B, C) -> Result
    ) -> Signal<Result, Failure> where Value == (A, B, C) {
        map { reduce($0.0, $0.1, $0.2) }
    }
}

extension Signal where Failure == Never {
    /// Gives a signal that cannot fail any error type, so it composes with signals that can
    /// (ReactiveSwift `promoteError`).
    @inlinable
    public func promoteError<NewFailure: Error>(_: NewFailure.Type = NewFailure.self) -> Signal<Value, NewFailure> {
        mapError { never -> NewFailure in }
    }
}
