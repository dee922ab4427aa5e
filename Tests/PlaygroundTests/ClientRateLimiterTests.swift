import Testing

@testable import PlaygroundServer

/// The per-client token bucket of the programs' routes.
@Suite("Client rate limiter")
struct ClientRateLimiterTests {
    @Test func aBurstThenTheSustainedRatePerClient() {
        let limiter = ClientRateLimiter(perSecond: 2, burst: 3)
        let start = ContinuousClock.now
        #expect((0..<3).allSatisfy { _ in limiter.allow("a", now: start) })
        #expect(!limiter.allow("a", now: start))
        #expect(limiter.allow("b", now: start), "each client has its own bucket")
        #expect(!limiter.allow("a", now: start + .milliseconds(400)), "0.8 of a token")
        #expect(limiter.allow("a", now: start + .milliseconds(500)))
        #expect(
            limiter.allow("a", now: start + .seconds(60)) && limiter.allow("a", now: start + .seconds(60))
                && limiter.allow("a", now: start + .seconds(60)) && !limiter.allow("a", now: start + .seconds(60)),
            "a long pause refills the burst, no more"
        )
        #expect(limiter.retryAfterSeconds == 1)
    }

    @Test func fullBucketsAreForgottenWhenThereAreMany() {
        let limiter = ClientRateLimiter(perSecond: 1, burst: 1)
        let start = ContinuousClock.now
        for index in 0..<ClientRateLimiter.pruneThreshold { _ = limiter.allow("client \(index)", now: start) }
        #expect(!limiter.allow("client 0", now: start + .milliseconds(500)))
        // Past the threshold and a refill time later, every old bucket is full and forgotten: the
        // prune keeps memory bounded without refusing anyone it should not.
        #expect(limiter.allow("newcomer", now: start + .seconds(2)))
        #expect(limiter.allow("client 0", now: start + .seconds(2)))
        #expect(limiter.bucketCount <= 2)
    }
}
