extension Signal {
    /// Drops every value, passing on only the error or completion (RAC `ignoreValues`).
    @inlinable
    public func ignoreValues() -> Signal {
        filter { _ in false }
    }
}
