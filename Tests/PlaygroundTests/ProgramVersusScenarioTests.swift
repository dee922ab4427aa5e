import Locking
import Pipelines
import Reactive
import Testing

@testable import PlaygroundServer
@testable import Scenarios

/// The programs carried in the catalogue (`pipeline`) give the same streams as the built-in
/// scenarios they restate, side by side on virtual clocks with the same inputs.
@Suite("Programs against the built-in scenarios")
struct ProgramVersusScenarioTests {
    typealias Recorded = (stream: String, time: Int, event: StreamEvent)

    /// Runs scenario `S` and its catalogue program with the same inputs (`renamed` maps the
    /// scenario's input and stream names to the program's), and returns both recordings of each
    /// stream in `streams`, as "time event" lines; errors sent as values compare by code only
    /// when `codesOnly` (their messages are the scenario's own).
    func compare<S: Scenario>(
        _: S.Type,
        inputs: [(Int, String, InputEvent)],
        streams: [String],
        renamed: [String: String] = [:],
        codesOnly: Set<String> = [],
        until: Int = 10_000
    )
        throws -> [String: (scenario: [String], program: [String])]
    {
        let scenarioClock = TestScheduler()
        let scenarioEvents = Lock<[Recorded]>([])
        let scenario = S(scheduler: scenarioClock, settings: ScenarioSettings()) { stream, report in
            guard case .event(let event, _) = report else { return }
            scenarioEvents.withLock { $0.append((stream, Int(scenarioClock.now / .milliseconds(1)), event)) }
        }
        for (time, input, event) in inputs {
            scenarioClock.schedule(after: .milliseconds(time)) { scenario.apply(event, to: input) }
        }
        scenarioClock.advance(to: .milliseconds(until))
        scenario.stop()

        let text = try #require(S.description.pipeline)
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let programClock = TestScheduler()
        let programEvents = Lock<[Recorded]>([])
        let services = ProgramSession.services(Services(scheduler: programClock, settings: ScenarioSettings()))
        let interpreter = try Interpreter(program: program, scheduler: programClock, services: services) { stream, event in
            let converted: StreamEvent =
                switch event {
                case .next(let value): .next(value.json)
                case .error(let failure): .error(ErrorInfo(code: failure.code, message: failure.message))
                case .completed: .completed
                }
            programEvents.withLock { $0.append((stream, Int(programClock.now / .milliseconds(1)), converted)) }
        }
        // A scenario's text field starts empty; a program's text input has no value until one is
        // posted: the empty text is posted first.
        for input in S.description.inputs where input.kind == .text {
            interpreter.send(.next(.string("")), to: renamed[input.name] ?? input.name)
        }
        for (time, input, event) in inputs {
            let value: Value =
                switch event {
                case .next(.text(let text)): .string(text)
                case .next(.bool(let flag)): .bool(flag)
                case .next(.number(let number)): .number(number)
                case .next(.choice(let option)): .string(option)
                case .next(.action): .null
                case .completed, .error: .null
                }
            let name = renamed[input] ?? input
            programClock.schedule(after: .milliseconds(time)) {
                interpreter.send(event == .completed ? .completed : .next(value), to: name)
            }
        }
        programClock.advance(to: .milliseconds(until))
        interpreter.stop()

        func lines(_ recorded: [Recorded], _ stream: String, as name: String) -> [String] {
            recorded.filter { $0.stream == name }.map { entry in
                if codesOnly.contains(stream), case .next(.object(let fields)) = entry.event, let code = fields["code"] {
                    return "\(entry.time) code \(code)"
                }
                return "\(entry.time) \(entry.event)"
            }
        }
        var result: [String: (scenario: [String], program: [String])] = [:]
        for stream in streams {
            result[stream] = (
                lines(scenarioEvents.withLock { $0 }, stream, as: stream),
                lines(programEvents.withLock { $0 }, stream, as: renamed[stream] ?? stream)
            )
        }
        return result
    }

    func expectSame(_ compared: [String: (scenario: [String], program: [String])]) {
        for (stream, pair) in compared.sorted(by: { $0.key < $1.key }) {
            #expect(!pair.scenario.isEmpty, "\(stream) sent nothing")
            #expect(pair.program == pair.scenario, "\(stream)")
        }
    }

    @Test func everyCataloguedProgramChecksCleanly() {
        for description in Catalogue.scenarios.map({ $0.description }) {
            guard let text = description.pipeline else { continue }
            #expect(PipelineLanguage.check(text).isEmpty, "\(description.id)")
        }
        let carried = Catalogue.scenarios.compactMap { $0.description.pipeline == nil ? nil : $0.description.id }
        #expect(Set(carried) == ["ticker", "search", "login", "command"])
    }

    @Test func theRequestServiceCountsEachSubscriptionAsARequest() throws {
        let clock = TestScheduler()
        let services = ProgramSession.services(Services(scheduler: clock, settings: ScenarioSettings()))
        let recorded = Lock<[String]>([])
        let (program, _) = PipelineLanguage.parse("twice = merge(request(), request())\nlater = timer(after: 2s).flatMap(.merge) { _ in request() }")
        let interpreter = try Interpreter(program: program, scheduler: clock, services: services) { stream, event in
            recorded.withLock { $0.append("\(Int(clock.now / .milliseconds(1))) \(stream) \(event.value.map { "\($0.json)" } ?? "\(event)")") }
        }
        clock.advance(to: .seconds(5))
        interpreter.stop()
        let lines = recorded.withLock { $0 }
        #expect(
            lines.filter { !$0.contains("·") } == [
                #"1000 twice string("response 1")"#, #"1000 twice string("response 2")"#, "1000 twice completed",
                #"3000 later string("response 3")"#, "3000 later completed",
            ]
        )
        // Each call is a subscription of its own, reported as `stream·request` (how it ended, not
        // its value, which the stream carries).
        #expect(
            lines.filter { $0.contains("·request") } == [
                "1000 twice·request completed", "1000 twice·request completed", "3000 later·request completed",
            ]
        )
    }

    @Test func theTickerProgramGivesTheTickersStreams() throws {
        expectSame(try compare(Ticker.self, inputs: [], streams: ["timer", "count", "parity"], renamed: ["timer": "ticks"], until: 5_500))
    }

    @Test func theSearchProgramGivesTheSearchScenariosStreams() throws {
        let typing: [(Int, String)] = [(0, "sw"), (100, "swe"), (200, "swed"), (1_000, "fre"), (1_100, "fren"), (2_400, "x!fail")]
        expectSame(
            try compare(
                Search.self,
                inputs: typing.map { ($0.0, "query", .next(.text($0.1))) },
                streams: ["validQuery", "throttled", "results"]
            )
        )
    }

    @Test func theLoginProgramGivesTheLoginScenariosStreams() throws {
        let inputs: [(Int, String, InputEvent)] = [
            (0, "username", .next(.text("use"))), (100, "password", .next(.text("pass"))),
            (200, "submit", .next(.action)),  // disabled: the user name is too short
            (300, "username", .next(.text("user"))), (400, "password", .next(.text("password"))),
            (500, "submit", .next(.action)),  // signs in, about a second
            (800, "submit", .next(.action)),  // refused: a sign-in is running
            (2_000, "password", .next(.text("wrong"))), (2_100, "submit", .next(.action)),
        ]
        expectSame(
            try compare(
                Login.self,
                inputs: inputs,
                streams: ["usernameValid", "passwordValid", "signInEnabled", "signingIn", "signInResult", "errors"],
                renamed: ["errors": "failures"],
                codesOnly: ["errors"]
            )
        )
    }

    @Test func theCommandProgramGivesTheCommandScenariosStreams() throws {
        // Addresses on which the approximation and the scenario's pattern agree.
        let inputs: [(Int, String, InputEvent)] = [
            (0, "email", .next(.text("ann"))), (100, "execute", .next(.action)),  // refused: invalid
            (200, "email", .next(.text("ann@example.com"))), (300, "execute", .next(.action)),
            (400, "execute", .next(.action)),  // refused: running, no concurrency
            (600, "allowsConcurrentExecution", .next(.bool(true))), (700, "execute", .next(.action)),
            (3_000, "email", .next(.text("bob@fail.example"))), (3_100, "execute", .next(.action)),  // fails
        ]
        expectSame(
            try compare(
                CommandScenario.self,
                inputs: inputs,
                streams: ["emailValid", "enabled", "executing", "executionValues", "errors"],
                renamed: ["enabled": "isEnabled", "executing": "isExecuting", "errors": "failures", "execute": "press"],
                codesOnly: ["errors"]
            )
        )
    }
}
