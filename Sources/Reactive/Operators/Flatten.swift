/// How the flattening operators combine the inner signals they make.
public enum FlattenStrategy: Sendable {
    /// Subscribe to every inner signal at once and merge their values (RAC `flattenMap:`).
    case merge
    /// Subscribe to one inner signal at a time, in order (RAC `concat` of a signal of signals).
    case concat
    /// Subscribe only to the latest inner signal, disposing the previous one (RAC `switchToLatest`).
    case latest
}

extension Signal {
    /// Maps each value to a signal and flattens those signals with `strategy`
    /// (ReactiveSwift's `flatMap(_:_:)`; RAC `flattenMap:` for `.merge`).
    public func flatMap<NewValue: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        map(transform).flatten(strategy)
    }

    /// Maps each value to a signal and merges them all (RAC `flattenMap:`). Completes once this
    /// signal and every inner signal have completed.
    public func flattenMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.merge, transform)
    }

    /// Maps each value to a signal and subscribes to them one after another, in order (RAC
    /// `concat` after `map:`).
    public func concatMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
    ) -> Signal<NewValue, Failure> {
        flatMap(.concat, transform)
    }

    /// Flattens a signal of signals with `strategy`.
    public func flatten<Inner: Sendable>(_ strategy: FlattenStrategy) -> Signal<Inner, Failure>
    where Value == Signal<Inner, Failure> {
        switch strategy {
        case .merge: mergeInner()
        case .concat: concatInner()
        case .latest: switchToLatest()
        }
    }
}
