import Testing

@testable import Locking

/// ``TokenBucket``: the one rate mechanism (step budget, CPU time, inputs, client requests).
@Suite("Token bucket")
struct TokenBucketTests {
    let start = ContinuousClock.now

    /// Takes `count` tokens at `seconds` after the start (`#expect` cannot call a mutating method).
    func take(_ bucket: inout TokenBucket, _ count: Double = 1, after seconds: Double) -> Bool {
        bucket.take(count, at: start + .milliseconds(Int64(seconds * 1_000)))
    }

    @Test func aFullBucketGivesItsCapacityThenRefillsWithTime() {
        var bucket = TokenBucket(capacity: 3, perSecond: 2, now: start)
        var taken = [take(&bucket, after: 0), take(&bucket, 2, after: 0), take(&bucket, after: 0)]
        #expect(taken == [true, true, false])
        taken = [take(&bucket, after: 0.4), take(&bucket, after: 0.5), take(&bucket, after: 0.5)]
        #expect(taken == [false, true, false], "0.8 of a token at 0.4 s, one at 0.5 s")
    }

    @Test func itNeverHoldsMoreThanItsCapacity() {
        var bucket = TokenBucket(capacity: 2, perSecond: 100, now: start)
        bucket.refill(at: start + .seconds(60))
        #expect(bucket.tokens == 2)
        #expect(bucket.isFull(at: start + .seconds(60)))
    }

    @Test func aChargeMayOverdrawAndTimePaysItBack() {
        var bucket = TokenBucket(capacity: 1, perSecond: 0.5, now: start)
        bucket.charge(2, at: start)
        #expect(bucket.tokens == -1)
        #expect(!bucket.isFull(at: start + .seconds(3)))
        #expect(bucket.isFull(at: start + .seconds(4)))
        let taken = [take(&bucket, after: 3), take(&bucket, after: 5)]
        #expect(taken == [false, true], "0.5 at 3 s, a whole token at 5 s")
    }

    @Test func aClockThatGoesBackAddsNothing() {
        var bucket = TokenBucket(capacity: 1, perSecond: 1, now: start + .seconds(10))
        let taken = take(&bucket, after: 10)
        #expect(taken)
        bucket.refill(at: start)
        #expect(bucket.tokens == 0)
    }
}
