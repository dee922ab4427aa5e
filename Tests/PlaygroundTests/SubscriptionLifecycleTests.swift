import Locking
import Pipelines
import Reactive
import Testing

@testable import PlaygroundServer
@testable import Scenarios

/// No subscription outlives its program: for every example program and every scenario's
/// program, each `subscribed` has one `disposed` once the program stops, and nothing of a
/// subscription comes before its `subscribed` or after its `disposed`.
@Suite("Every subscription of a program ends with it")
struct SubscriptionLifecycleTests {
    static let programs: [(String, String)] =
        Example.all.map { ("example \($0.id)", $0.program) }
        + Catalogue.scenarios.compactMap { type in type.description.pipeline.map { ("scenario \(type.description.id)", $0) } }

    @Test(arguments: programs.map(\.0))
    func everySubscribedHasItsDisposed(name: String) throws {
        let text = try #require(Self.programs.first { $0.0 == name }?.1)
        let (program, _) = PipelineLanguage.parse(text)
        let clock = TestScheduler()
        let reports = Lock<[(stream: String, id: Int?, report: StreamReport)]>([])
        let services = ProgramSession.services(Services(scheduler: clock, settings: ScenarioSettings()))
        let interpreter = try Interpreter(program: program, scheduler: clock, services: services) { stream, report in
            reports.withLock { $0.append((stream, report.subscription, report)) }
        }
        // Something to do for each input: a text, a number, a press, a switch.
        for input in program.inputs {
            for value: Value in [.string("swedish"), .number(3), .null, .bool(true)] {
                clock.schedule(after: .milliseconds(100)) { interpreter.send(.next(value), to: input.name) }
            }
        }
        clock.advance(by: .seconds(5))
        interpreter.stop()

        let recorded = reports.withLock { $0 }
        #expect(recorded.contains { if case .subscribed = $0.report { true } else { false } }, "\(name) subscribed to something")
        var open: Set<Int> = []
        var ended: Set<Int> = []
        for entry in recorded {
            let id = try #require(entry.id, "\(name): \(entry.stream) reported without a subscription")
            #expect(!ended.contains(id), "\(name): subscription \(id) of \(entry.stream) reported after its disposal")
            switch entry.report {
            case .subscribed:
                #expect(open.insert(id).inserted, "\(name): subscription \(id) began twice")
            case .event:
                #expect(open.contains(id), "\(name): subscription \(id) delivered before it began")
            case .disposed:
                #expect(open.remove(id) != nil, "\(name): subscription \(id) ended without beginning")
                ended.insert(id)
            }
        }
        #expect(open.isEmpty, "\(name): subscriptions \(open.sorted()) outlived the program")
        #expect(interpreter.subscriptionCounts.values.allSatisfy { $0.live == 0 })
    }
}
