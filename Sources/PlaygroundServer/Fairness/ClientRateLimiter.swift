import Locking

/// A token bucket per client address: `perSecond` requests sustained, bursts of `burst`. Keeps
/// the programs' routes cheap to refuse for a client that posts faster than a person types: a
/// program costs parsing on the polling thread and, when it runs, its step budget on a program
/// thread (docs/PIPELINES.md, "Limits").
///
/// Thread safety: the buckets are under one lock, taken once per request.
final class ClientRateLimiter: Sendable {
    let perSecond: Double
    let burst: Double
    private let buckets = Lock<[String: TokenBucket]>([:])

    /// Buckets kept before full ones are forgotten (a full bucket is the same as none).
    static let pruneThreshold = 10_000

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
    }

    /// Whether `client` may make one more request now (of `cost` tokens: a limiter of bytes
    /// counts a request's bytes); takes the tokens if so.
    func allow(_ client: String, cost: Double = 1, now: ContinuousClock.Instant = .now) -> Bool {
        buckets.withLock { buckets in
            if buckets.count >= Self.pruneThreshold { prune(&buckets, now: now) }
            var bucket = buckets[client] ?? TokenBucket(capacity: burst, perSecond: perSecond, now: now)
            let allowed = bucket.take(cost, at: now)
            buckets[client] = bucket
            return allowed
        }
    }

    /// Takes `cost` tokens from `client` whether or not it has them (what was done is done: a
    /// failed guess is counted after it was made); its bucket may go below zero.
    func charge(_ client: String, cost: Double, now: ContinuousClock.Instant = .now) {
        buckets.withLock { buckets in
            var bucket = buckets[client] ?? TokenBucket(capacity: burst, perSecond: perSecond, now: now)
            bucket.charge(cost, at: now)
            buckets[client] = bucket
        }
    }

    /// What `client` has taken of its bucket (its burst less what it holds now), and how many
    /// clients have taken some: what a fair share of something left is reckoned from.
    func spent(by client: String, now: ContinuousClock.Instant = .now) -> (spent: Double, spenders: Int) {
        buckets.withLock { buckets in
            let spenders = buckets.values.count { !$0.isFull(at: now) }
            guard var bucket = buckets[client] else { return (0, spenders) }
            bucket.refill(at: now)
            return (max(0, burst - bucket.tokens), spenders)
        }
    }

    /// The number of buckets kept (tests).
    var bucketCount: Int { buckets.withLock { $0.count } }

    /// Seconds until `client` has a token again, at least 1 (for `Retry-After`).
    var retryAfterSeconds: Int { retryAfterSeconds(cost: 1) }

    /// Seconds until an empty bucket holds `cost` tokens again, at least 1 (for `Retry-After`).
    func retryAfterSeconds(cost: Double) -> Int { max(1, Int((min(cost, burst) / perSecond).rounded(.up))) }

    private func prune(_ buckets: inout [String: TokenBucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { !$0.value.isFull(at: now) }
    }
}
