import Locking
import Reactive
import Testing

@testable import Pipelines

/// `command(…) { … }.execute(on:)` through the language: executions, refusals, concurrency and the
/// command's other signals, on a virtual clock.
@Suite("Pipeline language: commands")
struct CommandProgramTests {
    typealias Timed = (time: Int, event: Event<Value, PipelineFailure>)

    func run(_ text: String, inputs: [(Int, String, Value)], until: Int = 10_000) throws -> [String: [String]] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let scheduler = TestScheduler()
        let recorded = Lock<[String: [String]]>([:])
        let interpreter = try Interpreter(program: program, scheduler: scheduler) { stream, event in
            let time = Int(scheduler.now / .milliseconds(1))
            let text =
                switch event {
                case .next(let value): value.jsonText
                case .error(let failure): "error \(failure.code)"
                case .completed: "completed"
                }
            recorded.withLock { $0[stream, default: []].append("\(time) \(text)") }
        }
        for (time, input, value) in inputs {
            scheduler.schedule(after: .milliseconds(time)) { interpreter.send(.next(value), to: input) }
        }
        scheduler.advance(to: .milliseconds(until))
        interpreter.stop()
        return recorded.withLock { $0 }
    }

    static let program = """
        input go: number
        input concurrent: bool
        input ok: bool
        work = command(enabled: ok, allowsConcurrentExecution: concurrent) { n in just(n).attempt { $0 >= 0 }.flatMap(.merge) { v in just(v * 10).delay(1s) } }
            .execute(on: go)
        busy = work.executing
        canRun = work.enabled
        latest = work.executionSignals
        problems = work.errors
        """

    @Test func executionsRefusalsAndTheCommandsSignals() throws {
        let recorded = try run(
            Self.program,
            inputs: [
                (0, "go", 1),  // enabled until `ok` sends: runs, 10 at 1000
                (100, "go", 2),  // refused: running, no concurrency
                (200, "concurrent", true), (300, "go", 3),  // runs beside the first: 30 at 1300
                (2_000, "go", -1),  // fails: on errors, the stream goes on
                (2_100, "ok", false), (2_200, "go", 4),  // refused: disabled
            ]
        )
        #expect(recorded["work"] == ["1000 10", "1300 30"])
        #expect(recorded["busy"] == ["0 false", "0 true", "1300 false", "2000 true", "2000 false"])
        #expect(recorded["canRun"]?.first == "0 true" && recorded["canRun"]?.last == "2100 false")
        #expect(recorded["latest"] == ["1300 30"], "the second execution replaced the first before it sent")
        let problems = recorded["problems"] ?? []
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.first == #"100 {"code":"not_enabled","message":"The command is disabled."}"#)
        #expect(problems.dropFirst().first?.hasPrefix(#"2000 {"code":"attempt_failed""#) == true)
        #expect(problems.last == #"2200 {"code":"not_enabled","message":"The command is disabled."}"#)
    }

    @Test func aCommandIsDefinedAsItsOwnLineWithExecute() {
        #expect(
            buildErrors("input g: action\nc = command { _ in just(1) }")
                == ["a command is defined as `command(…) { … }.execute(on: trigger)`, and nothing else in its line"]
        )
        #expect(
            buildErrors("input g: action\nc = command { _ in just(1) }.execute(on: g).map { $0 }")
                == ["a command is defined as `command(…) { … }.execute(on: trigger)`, and nothing else in its line"]
        )
        #expect(
            buildErrors("input g: action\nc = command(when: g) { _ in just(1) }.execute(on: g)")
                == ["`command` takes `enabled:` and `allowsConcurrentExecution:` (both optional) and a closure"]
        )
        #expect(buildErrors("input g: action\nc = command { _ in just(1) }.execute(g)") == ["`execute` takes (on:), not (_)"])
        #expect(
            buildErrors("input g: action\nc = command { _ in just(1) }.execute(on: g)\nd = c.running")
                == ["a command has `executing`, `enabled`, `errors` and `executionSignals`, not `running`"]
        )
        #expect(buildErrors("input g: action\nc = command { _ in just(1) }.execute(on: g)\nd = c.executing.map { !$0 }") == [])
    }
}
