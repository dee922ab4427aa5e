import Reactive
import Scenarios
import Synchronization
import Testing

@Suite("Ticker scenario")
struct TickerTests {
    @Test func everyStageEmitsOncePerTickInVirtualTime() {
        let scheduler = TestScheduler()
        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(500)
        let events = Mutex<[String]>([])
        let ticker = Ticker(scheduler: scheduler, settings: settings)
        let subscription = ticker.start { name, event in
            if case .next(let value) = event { events.withLock { $0.append("\(name)=\(value)") } }
        }
        scheduler.advance(by: .milliseconds(400))
        #expect(events.withLock { $0 }.isEmpty)
        scheduler.advance(by: .milliseconds(600))
        #expect(events.withLock { $0 } == [
            "timer=int(500)", "count=int(1)", "parity=string(\"odd\")",
            "timer=int(1000)", "count=int(2)", "parity=string(\"even\")",
        ])
        subscription.dispose()
        scheduler.advance(by: .seconds(5))
        #expect(events.withLock { $0 }.count == 6, "nothing runs after disposal")
    }

    @Test func catalogueDescribesEveryStream() {
        let description = Ticker.description
        #expect(Catalogue.scenario(withID: "ticker") != nil)
        #expect(description.streams.map(\.name) == ["timer", "count", "parity"])
        #expect(description.streams.allSatisfy { stream in
            stream.from.allSatisfy { source in description.streams.contains { $0.name == source } }
        })
    }
}
