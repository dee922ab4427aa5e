import Testing

@testable import Scenarios

@Suite("Ticker scenario")
struct TickerTests {
    @Test func everyStageEmitsOncePerTickInVirtualTime() {
        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(500)
        let ticker = ScenarioHarness<Ticker>(settings: settings)
        ticker.advance(by: 400)
        #expect(ticker.all.isEmpty)
        ticker.advance(by: 600)
        #expect(
            ticker.all.map { "\($0.time) \($0.stream)" } == [
                "500 timer", "500 count", "500 parity", "1000 timer", "1000 count", "1000 parity",
            ]
        )
        #expect(ticker.values("parity") == [.string("odd"), .string("even")])
        ticker.scenario.stop()
        ticker.advance(by: 5_000)
        #expect(ticker.all.count == 6, "nothing runs after stop")
    }

    @Test func catalogueDescribesEveryStreamAndItsSources() {
        #expect(Catalogue.scenarios.map { $0.description.id } == ["login", "search", "command", "binding", "multicast", "schedulers", "ticker"])
        for scenario in Catalogue.scenarios {
            let description = scenario.description
            let names = Set(description.streams.map(\.name) + description.inputs.map(\.name))
            for stream in description.streams {
                #expect(stream.from.allSatisfy(names.contains), "\(description.id).\(stream.name) has an unknown source")
            }
        }
    }
}
