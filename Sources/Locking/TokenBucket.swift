/// A token bucket: at most ``capacity`` tokens, refilled at ``perSecond`` as time passes. The one
/// rate mechanism of the package: a program's step budget and its CPU time, a session's inputs and
/// a client's requests each keep one.
///
/// A value type with no lock of its own: its owner keeps it under the owner's lock.
public struct TokenBucket: Sendable {
    /// The most tokens it holds.
    public let capacity: Double
    /// Tokens added each second.
    public let perSecond: Double
    /// The tokens it held at ``updated``; below zero after a ``charge(_:at:)`` that overdrew it.
    public private(set) var tokens: Double
    /// When ``tokens`` was last brought up to date.
    public private(set) var updated: ContinuousClock.Instant

    /// A full bucket.
    public init(capacity: Double, perSecond: Double, now: ContinuousClock.Instant = .now) {
        self.capacity = capacity
        self.perSecond = perSecond
        tokens = capacity
        updated = now
    }

    /// Adds the tokens that time brought since the last update (none for a clock that went back).
    public mutating func refill(at now: ContinuousClock.Instant) {
        let elapsed = Double((now - updated) / .microseconds(1)) / 1_000_000
        tokens = min(capacity, tokens + max(0, elapsed) * perSecond)
        updated = now
    }

    /// Takes `count` tokens if there are that many now; whether it did.
    public mutating func take(_ count: Double = 1, at now: ContinuousClock.Instant) -> Bool {
        refill(at: now)
        guard tokens >= count else { return false }
        tokens -= count
        return true
    }

    /// Takes `count` tokens whether or not there are that many (what was used is used: measured
    /// CPU time, say); ``tokens`` may go below zero.
    public mutating func charge(_ count: Double, at now: ContinuousClock.Instant) {
        refill(at: now)
        tokens -= count
    }

    /// Whether it would be full at `now` (a full bucket is the same as none, and can be forgotten).
    public func isFull(at now: ContinuousClock.Instant) -> Bool {
        tokens + max(0, Double((now - updated) / .microseconds(1)) / 1_000_000) * perSecond >= capacity
    }
}
