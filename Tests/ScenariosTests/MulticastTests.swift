import Testing

@testable import Scenarios

@Suite("Multicast scenario, in virtual time")
struct MulticastScenarioTests {
    private func strings(_ values: [JSONValue]) -> [String] {
        values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// Both subscribe, then the response arrives after the service latency (1 s).
    private func bothSubscribe(mode: String) -> ScenarioHarness<Multicast> {
        let multicast = ScenarioHarness<Multicast>()
        multicast.send("mode", .text(mode))
        multicast.press("subscribeA")
        multicast.advance(by: 100)
        multicast.press("subscribeB")
        multicast.advance(by: 1_000)
        return multicast
    }

    @Test func coldMakesARequestPerSubscriber() {
        let multicast = bothSubscribe(mode: "cold")
        #expect(multicast.latest("requestsMade") == .int(2))
        #expect(strings(multicast.values("subscriberA")) == ["subscribed", "next: response 1", "completed"])
        #expect(strings(multicast.values("subscriberB")) == ["subscribed", "next: response 2", "completed"])
        #expect(multicast.values("connection") == [.string("none: cold")])
    }

    @Test func publishAndAutoconnectMakeOneRequestForBoth() {
        let multicast = bothSubscribe(mode: "publish")
        #expect(multicast.latest("requestsMade") == .int(1))
        #expect(strings(multicast.values("subscriberA")) == ["subscribed", "next: response 1", "completed"])
        #expect(strings(multicast.values("subscriberB")) == ["subscribed", "next: response 1", "completed"])
        #expect(strings(multicast.values("connection")) == ["none: cold", "not connected", "connected", "disposed"])
    }

    /// (A RACSubject would leave the late subscriber waiting; ours remembers that it completed.)
    @Test func aLateSubscriberMissesTheResponseWithPublishButGetsItWithReplay() {
        for (mode, late) in [("publish", ["subscribed", "completed"]), ("replay", ["subscribed", "next: response 1", "completed"])] {
            let multicast = ScenarioHarness<Multicast>()
            multicast.send("mode", .text(mode))
            multicast.press("subscribeA")
            multicast.advance(by: 1_000)
            multicast.press("subscribeB")
            multicast.advance(by: 1_000)
            #expect(strings(multicast.values("subscriberB")) == late, "\(mode)")
            #expect(multicast.latest("requestsMade") == .int(1), "\(mode): never a second request")
        }
    }

    @Test func unsubscribingEveryoneDisposesTheConnectionAndCancelsTheRequest() {
        let multicast = ScenarioHarness<Multicast>()
        multicast.send("mode", .text("publish"))
        multicast.press("subscribeA")
        multicast.press("subscribeB")
        multicast.press("unsubscribeA")
        #expect(multicast.latest("connection") == .string("connected"), "B still subscribes")
        multicast.press("unsubscribeB")
        #expect(multicast.latest("connection") == .string("disposed"))
        multicast.advance(by: 2_000)
        #expect(strings(multicast.values("subscriberA")) == ["subscribed", "unsubscribed"], "the request was cancelled")
    }

    @Test func aNewModeLeavesTheOldRequestFirst() {
        let multicast = ScenarioHarness<Multicast>()
        multicast.send("mode", .text("publish"))
        multicast.press("subscribeA")
        multicast.clear()
        multicast.send("mode", .text("replay"))
        #expect(strings(multicast.values("connection")) == ["disposed", "not connected"])
        #expect(multicast.values("requestsMade") == [.int(0)])
        multicast.advance(by: 2_000)
        #expect(multicast.values("subscriberA").isEmpty, "A must subscribe again in the new mode")
    }
}
