import Locking
import Reactive
import Testing

@testable import Scenarios

/// The built-in scenarios follow the rule of a program's named streams: each stage is cold,
/// subscribed by what reads it (a later stage, a command) or, when nothing reads it, by the
/// session; every subscription is reported, and none outlives the scenario's `stop()`.
@Suite("Scenario subscriptions")
struct ScenarioSubscriptionTests {
    /// Runs `type` with a value into each input, then stops it; returns every report.
    func run(_ type: any Scenario.Type) -> [(stream: String, report: StageReport)] {
        let scheduler = TestScheduler()
        let reports = Lock<[(stream: String, report: StageReport)]>([])
        let instance = type.init(scheduler: scheduler, settings: ScenarioSettings()) { stream, report in
            reports.withLock { $0.append((stream, report)) }
        }
        scheduler.advance()
        for input in type.description.inputs where input.kind != .choice {
            let value: InputValue =
                switch input.kind {
                case .text: .text("swedish")
                case .bool: .bool(true)
                case .number: .number(1)
                case .choice, .action: .action
                }
            instance.apply(.next(value), to: input.name)
            scheduler.advance(by: .milliseconds(100))
        }
        scheduler.advance(by: .seconds(3))
        // The work handed to other threads (the schedulers scenario's queue) runs out first: a
        // value its queue is delivering while stop() disposes is reported after the disposal.
        instance.settle()
        instance.stop()
        return reports.withLock { $0 }
    }

    @Test(arguments: Catalogue.scenarios.map { ObjectIdentifier($0) })
    func everyStreamIsSubscribedAndEverySubscriptionEndsWithTheScenario(_ id: ObjectIdentifier) throws {
        let type = try #require(Catalogue.scenarios.first { ObjectIdentifier($0) == id })
        let reports = run(type)
        let subscribed = Set(
            reports.compactMap { entry -> String? in
                if case .subscribed = entry.report { return entry.stream }
                return nil
            }
        )
        for stream in type.description.streams.map(\.name) {
            #expect(subscribed.contains(stream), "\(type): \(stream) was never subscribed")
        }
        var open: Set<Int> = []
        var ended: Set<Int> = []
        for entry in reports {
            switch entry.report {
            case .subscribed(let id):
                #expect(open.insert(id).inserted && !ended.contains(id), "\(type): subscription \(id) began twice")
            case .event(_, let id):
                let id = try #require(id, "\(type): \(entry.stream)'s event has no subscription")
                #expect(open.contains(id), "\(type): \(entry.stream) delivered on subscription \(id), not live")
            case .disposed(let id):
                #expect(open.remove(id) != nil, "\(type): subscription \(id) of \(entry.stream) ended without beginning")
                ended.insert(id)
            }
        }
        #expect(open.isEmpty, "\(type): subscriptions \(open.sorted()) outlived stop()")
    }

    /// Every name a scenario reports is in its catalogue entry: a stream, or one of the `sources`
    /// its owning stream declares (`results·search`), so that a client knows every SSE event name
    /// to listen for before the session starts.
    @Test(arguments: Catalogue.scenarios.map { ObjectIdentifier($0) })
    func everyReportedNameIsACatalogueStreamOrADeclaredSource(_ id: ObjectIdentifier) throws {
        let type = try #require(Catalogue.scenarios.first { ObjectIdentifier($0) == id })
        let streams = type.description.streams
        let known = Set(streams.map(\.name)).union(streams.flatMap { $0.sources ?? [] })
        for name in Set(run(type).map(\.stream)) {
            #expect(known.contains(name), "\(type): \(name) is reported but not in the catalogue")
        }
        for stream in streams {
            for source in stream.sources ?? [] {
                #expect(source.hasPrefix(stream.name + "·"), "\(type): \(source) is not named after \(stream.name)")
            }
        }
    }

    /// Sharing is written where a scenario means it: the search runs once per query however many
    /// streams read the searches, and the command's `enabled` stage is subscribed once, by the command.
    @Test func sharedStagesAreSubscribedOnce() {
        func subscriptions(of stream: String, in reports: [(stream: String, report: StageReport)]) -> Int {
            reports.filter {
                if $0.stream == stream, case .subscribed = $0.report { return true }
                return false
            }.count
        }
        let search = run(Search.self)
        #expect(subscriptions(of: "validQuery", in: search) == 1)
        #expect(subscriptions(of: "throttled", in: search) == 1)
        let login = run(Login.self)
        #expect(subscriptions(of: "signInEnabled", in: login) == 1)
        #expect(subscriptions(of: "usernameValid", in: login) == 1)
        let ticker = run(Ticker.self)
        #expect(subscriptions(of: "timer", in: ticker) == 1)
    }

    /// A scenario's service calls are subscriptions too: a newer query disposes the search in
    /// flight before its answer, as a program's `results·search` shows.
    @Test func aNewerQueryDisposesTheSearchInFlightBeforeItsAnswer() {
        let search = ScenarioHarness<Search>()
        search.send("query", .text("swe"))
        search.scheduler.advance(by: .milliseconds(600))  // throttled: the first search starts
        search.send("query", .text("swedish"))
        search.scheduler.advance(by: .milliseconds(600))  // throttled again: it replaces the first
        search.scheduler.advance(by: .seconds(2))
        let searches = search.allReports.filter { $0.stream == "results·search" }.map(\.report)
        guard case .subscribed(let first) = searches.first else {
            Issue.record("no search: \(searches)")
            return
        }
        let ofFirst = searches.filter {
            switch $0 {
            case .subscribed(let id), .disposed(let id): id == first
            case .event(_, let id): id == first
            }
        }
        #expect(ofFirst == [.subscribed(first), .disposed(first)], "cancelled: no answer, then its end")
        let answered = searches.contains {
            if case .event(.completed, let id) = $0 { return id != first }
            return false
        }
        #expect(answered, "the newer search answered")
    }
}
