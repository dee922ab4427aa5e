import Locking
import Pipelines
@testable import Playground
import Reactive
import Scenarios
import Testing

/// A program written in the pipeline language gives the same streams as the built-in scenario it
/// restates, side by side on virtual clocks with the same inputs.
@Suite("Programs against the built-in scenarios")
struct ProgramVersusScenarioTests {
    typealias Recorded = (stream: String, time: Int, event: StreamEvent)

    static let searchProgram = """
        input query: text
        validQuery = query.filter { $0.count > 2 }
        throttled = validQuery.throttle(0.5s)
        results = throttled.flatMap(.latest) { search($0).catch { _ in empty } }
        """

    @Test func searchAsAProgramGivesTheSearchScenariosStreams() throws {
        let typing: [(Int, String)] = [(0, "sw"), (100, "swe"), (200, "swed"), (1_000, "fre"), (1_100, "fren"), (2_400, "x!fail")]

        let scenarioClock = TestScheduler()
        let scenarioEvents = Lock<[Recorded]>([])
        let search = Search(scheduler: scenarioClock, settings: ScenarioSettings()) { stream, event in
            scenarioEvents.withLock { $0.append((stream, Int(scenarioClock.now / .milliseconds(1)), event)) }
        }
        for (time, text) in typing {
            scenarioClock.schedule(after: .milliseconds(time)) { search.apply(.next(.text(text)), to: "query") }
        }
        scenarioClock.advance(to: .seconds(10))

        let programClock = TestScheduler()
        let programEvents = Lock<[Recorded]>([])
        let (program, diagnostics) = Pipeline.parse(Self.searchProgram)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let services = ProgramPipeline.services(Services(scheduler: programClock, settings: ScenarioSettings()))
        let interpreter = try Interpreter(program: program, scheduler: programClock, services: services) { stream, event in
            let converted: StreamEvent = switch event {
            case .next(let value): .next(value.json)
            case .error(let failure): .error(code: failure.code, message: failure.message)
            case .completed: .completed
            }
            programEvents.withLock { $0.append((stream, Int(programClock.now / .milliseconds(1)), converted)) }
        }
        for (time, text) in typing {
            programClock.schedule(after: .milliseconds(time)) { interpreter.send(.next(.string(text)), to: "query") }
        }
        programClock.advance(to: .seconds(10))

        for stream in ["validQuery", "throttled", "results"] {
            let expected = scenarioEvents.withLock { $0 }.filter { $0.stream == stream }.map { "\($0.time) \($0.event)" }
            let actual = programEvents.withLock { $0 }.filter { $0.stream == stream }.map { "\($0.time) \($0.event)" }
            #expect(!expected.isEmpty)
            #expect(actual == expected, "\(stream)")
        }
        search.stop()
        interpreter.stop()
    }
}
