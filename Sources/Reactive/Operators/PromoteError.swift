extension Signal where Failure == Never {
    /// Gives a signal that cannot fail any error type, so it composes with signals that can
    /// (ReactiveSwift `promoteError`).
    @inlinable
    public func promoteError<NewFailure: Error>(_: NewFailure.Type = NewFailure.self) -> Signal<Value, NewFailure> {
        mapError { never -> NewFailure in }
    }
}
