extension Signal {
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
