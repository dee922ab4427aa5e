import Testing

@testable import Scenarios

/// The schedulers scenario: the background schedulers are real threads, so their events are waited
/// for (bounded); the "still not run" check is timed on the virtual clock.
@Suite("Schedulers scenario")
struct SchedulersScenarioTests {
    private func field(_ value: JSONValue?, _ key: String) -> String? {
        if case .object(let object) = value, case .string(let text) = object[key] { text } else { nil }
    }

    @Test func eachStageSaysWhichThreadDeliveredIt() {
        let schedulers = ScenarioHarness<Schedulers>()
        schedulers.press("tap")
        schedulers.press("tap")
        #expect(schedulers.wait { ["deliverOnQueue", "deliverOnRunLoop", "subscribeOnQueue"].allSatisfy { schedulers.values($0).count == 2 } })
        #expect(schedulers.values("source").map { field($0, "value") } == ["tap 1", "tap 2"])
        #expect(field(schedulers.latest("source"), "thread") == "the session's thread")
        for stream in ["deliverOnQueue", "subscribeOnQueue"] {
            #expect(schedulers.values(stream).map { field($0, "value") } == ["tap 1", "tap 2"], "\(stream): in order")
            #expect(schedulers.values(stream).allSatisfy { field($0, "thread") == "a Dispatch thread of queue playground.schedulers.queue" })
        }
        #expect(
            schedulers.values("deliverOnRunLoop").allSatisfy {
                field($0, "thread") == "the run-loop thread playground.schedulers.run-loop"
            }
        )
    }

    @Test func workOnAThreadWhoseRunLoopHasNoSourceNeverRuns() {
        let schedulers = ScenarioHarness<Schedulers>()
        schedulers.press("scheduleOnBareThread")
        #expect(schedulers.values("bareThread") == [.string("scheduled on a new thread whose run loop has no source")])
        schedulers.advance(by: 999)
        #expect(schedulers.values("bareThread").count == 1)
        schedulers.advance(by: 1)
        guard case .string(let verdict) = schedulers.latest("bareThread") else {
            Issue.record("expected the verdict")
            return
        }
        #expect(verdict.hasPrefix("still not run after 1000 ms"))
    }

    /// The work is handed over only after the bare run loop has returned: handed over earlier, a
    /// pending block counts as something to do, and it can run (a race seen over HTTP, where the
    /// schedulers session of docs/CURL.md sometimes reported "ran").
    @Test func theBareThreadNeverRunsTheWorkHoweverOftenItIsTried() {
        let schedulers = ScenarioHarness<Schedulers>()
        for _ in 0..<25 { schedulers.press("scheduleOnBareThread") }
        schedulers.advance(by: 1_000)
        let verdicts = schedulers.values("bareThread").compactMap { value -> String? in
            if case .string(let text) = value, !text.hasPrefix("scheduled") { text } else { nil }
        }
        #expect(verdicts.count == 25)
        #expect(verdicts.allSatisfy { $0.hasPrefix("still not run") })
    }

    @Test func theSameWorkOnAKeptAliveRunLoopRuns() {
        let schedulers = ScenarioHarness<Schedulers>()
        schedulers.press("scheduleOnRunLoop")
        #expect(schedulers.wait { schedulers.values("keptAliveRunLoop").count == 2 })
        #expect(
            schedulers.values("keptAliveRunLoop") == [
                .string("scheduled on the run-loop scheduler's thread"),
                .string("ran on the run-loop thread playground.schedulers.run-loop"),
            ]
        )
    }
}
