/// How the flattening operators combine the inner signals they make.
public enum FlattenStrategy: Sendable {
    /// Subscribe to every inner signal at once and merge their values (RAC `flattenMap:`).
    case merge
    /// Subscribe to one inner signal at a time, in order (RAC `concat` of a signal of signals).
    case concat
    /// Subscribe only to the latest inner signal, disposing the previous one (RAC `switchToLatest`).
    case latest
    /// Subscribe to at most `limit` inner signals at a time, in order; the others wait their turn
    /// (RAC `flatten:`). `limit` must be at least 1; `.concurrent(limit: 1)` is `.concat`.
    case concurrent(limit: Int)
}

extension Signal {
    /// Maps each value to a signal and flattens those signals with `strategy`
    /// (ReactiveSwift's `flatMap(_:_:)`; RAC `flattenMap:` for `.merge`).
    @inlinable
    public func flatMap<NewValue: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        map(transform).flatten(strategy)
    }

    /// Maps each value to a signal and merges them all (RAC `flattenMap:`). Completes once this
    /// signal and every inner signal have completed.
    @inlinable
    public func flattenMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.merge, transform)
    }

    /// Maps each value to a signal and subscribes to them one after another, in order (RAC
    /// `concat` after `map:`).
    @inlinable
    public func concatMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.concat, transform)
    }

    /// Flattens a signal of signals with `strategy` (RAC `flatten`, `concat`, `switchToLatest`,
    /// `flatten:`).
    ///
    /// - Precondition: a `.concurrent` limit is at least 1.
    @inlinable
    public func flatten<Inner: Sendable>(_ strategy: FlattenStrategy) -> Signal<Inner, Failure>
    where Value == Signal<Inner, Failure> {
        switch strategy {
        case .merge: return flatten(limit: nil)
        case .concat: return flatten(limit: 1)
        case .latest: return switchToLatest()
        case .concurrent(let limit):
            precondition(limit >= 1, "flatten(.concurrent(limit:)) needs a limit of at least 1, not \(limit)")
            return flatten(limit: limit)
        }
    }
}
