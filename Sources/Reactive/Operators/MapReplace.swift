extension Signal {
    /// Replaces every value with `value` (RAC `mapReplace:`).
    @inlinable
    public func mapReplace<NewValue: Sendable>(_ value: NewValue) -> Signal<NewValue, Failure> {
        map { _ in value }
    }
}
