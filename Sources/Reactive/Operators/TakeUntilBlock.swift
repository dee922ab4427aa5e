extension Signal {
    /// Sends values until `predicate` holds for one; completes then, without sending that value
    /// (RAC `takeUntilBlock:`). The opposite test of ``take(while:)``.
    public func take(until predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        take(while: { !predicate($0) })
    }

    /// Drops values until `predicate` holds for one, then sends that value and all the rest
    /// (RAC `skipUntilBlock:`). The opposite test of ``skip(while:)``.
    public func skip(until predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        skip(while: { !predicate($0) })
    }
}
