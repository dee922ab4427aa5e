extension Signal {
    /// Sends one value when this signal completes: `combine` folded over every value, starting
    /// with `initial` — `initial` itself if there was none (RAC `aggregateWithStart:reduce:`).
    public func aggregate<Result: Sendable>(
        _ initial: Result,
        _ combine: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        scan(initial, combine).startWith(initial).takeLast(1)
    }

    /// The same, passing `combine` the index of each value (RAC `aggregateWithStart:reduceWithIndex:`).
    public func aggregate<Result: Sendable>(
        _ initial: Result,
        withIndex combine: @escaping @Sendable (Result, Value, Int) -> Result
    ) -> Signal<Result, Failure> {
        scan(initial, withIndex: combine).startWith(initial).takeLast(1)
    }

    /// The same, with a starting value made anew for each subscription — for a mutable one that
    /// must not be shared (RAC `aggregateWithStartFactory:reduce:`).
    public func aggregate<Result: Sendable>(
        makingInitialWith makeInitial: @escaping @Sendable () -> Result,
        _ combine: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        .deferred { aggregate(makeInitial(), combine) }
    }
}
