extension Signal where Value: Equatable {
    /// Drops every value equal to `value` (RAC `ignore:`).
    public func ignore(_ value: Value) -> Signal {
        filter { $0 != value }
    }
}
