/// Time and counts from outside, turned into nanoseconds and added or multiplied without trapping:
/// Swift traps on overflow, and a trap on a request path ends every session.
extension Duration {
    /// The duration in whole nanoseconds, 0 when negative, and clamped to `UInt64.max`.
    public var nanosecondsClamped: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingClamped(UInt64(max(0, attoseconds) / 1_000_000_000))
    }
}

extension UInt64 {
    /// `self + other`, or `UInt64.max` when that overflows.
    public func addingClamped(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// `self * other`, or `UInt64.max` when that overflows.
    public func multipliedClamped(by other: UInt64) -> UInt64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
