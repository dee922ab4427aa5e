import Locking
import Reactive
import Testing

@testable import Pipelines

/// A program through the interpreter gives the same events as the same operators called from
/// Swift, on a virtual clock; run-time failures end only their stage; what cannot be built is a
/// diagnostic.
@Suite("Pipeline language: the interpreter")
struct InterpreterTests {
    typealias Recorded = (stream: String, time: Int, event: Event<Value, PipelineFailure>)

    /// Runs `text` on a virtual clock, sending each input at its time (milliseconds), then running
    /// the clock to `until`; returns every stream event with its time.
    func run(
        _ text: String,
        inputs: [(Int, String, Event<Value, PipelineFailure>)] = [],
        until: Int = 10_000
    )
        throws -> [Recorded]
    {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let scheduler = TestScheduler()
        let recorded = Lock<[Recorded]>([])
        let interpreter = try Interpreter(program: program, scheduler: scheduler) { stream, event in
            let time = Int(scheduler.now / .milliseconds(1))
            recorded.withLock { $0.append((stream, time, event)) }
        }
        for (time, input, event) in inputs {
            scheduler.schedule(after: .milliseconds(time)) { interpreter.send(event, to: input) }
        }
        scheduler.advance(to: .milliseconds(until))
        interpreter.stop()
        return recorded.withLock { $0 }
    }

    func values(_ recorded: [Recorded], of stream: String) -> [Value] {
        recorded.filter { $0.stream == stream }.compactMap(\.event.value)
    }

    @Test func mapFilterAndScanGiveWhatTheSwiftOperatorsGive() throws {
        let recorded = try run(
            """
            input n: number
            evens = n.filter { $0 % 2 == 0 }
            doubled = evens.map { $0 * 2 }
            total = doubled.scan(0) { total, value in total + value }
            """,
            inputs: (1...6).map { (0, "n", .next(.number(Double($0)))) }
        )
        let swift = Lock<[Int]>([])
        Signal<Int, Never>.from(1...6).filter { $0 % 2 == 0 }.map { $0 * 2 }.scan(0, +).subscribe(next: { v in swift.withLock { $0.append(v) } })
        #expect(values(recorded, of: "total") == swift.withLock { $0 }.map { .number(Double($0)) })
        #expect(values(recorded, of: "evens") == [2, 4, 6].map { .number($0) })
    }

    @Test func throttleOnTheVirtualClockIsRACsThrottle() throws {
        let typing: [(Int, String)] = [(0, "s"), (80, "sw"), (160, "swi"), (800, "swift")]
        let recorded = try run(
            "input q: text\nthrottled = q.throttle(500ms)",
            inputs: typing.map { ($0.0, "q", .next(.string($0.1))) }
        )
        let times = recorded.filter { $0.stream == "throttled" }.map(\.time)
        #expect(values(recorded, of: "throttled") == [.string("swi"), .string("swift")])
        #expect(times == [660, 1_300])
    }

    @Test func flatMapLatestSwitchesToTheNewestInnerSignal() throws {
        let recorded = try run(
            """
            input q: text
            results = q.flatMap(.latest) { query in timer(after: 300ms).map { _ in query + "!" } }
            """,
            inputs: [(0, "q", .next(.string("a"))), (100, "q", .next(.string("b"))), (1_000, "q", .next(.string("c")))]
        )
        #expect(values(recorded, of: "results") == [.string("b!"), .string("c!")])
    }

    @Test func combineLatestSendsArraysThatClosuresTakeApart() throws {
        let recorded = try run(
            """
            input a: number
            input b: number
            sum = combineLatest(a, b).map { x, y in x + y }
            """,
            inputs: [(0, "a", .next(.number(1))), (0, "b", .next(.number(10))), (5, "a", .next(.number(2)))]
        )
        #expect(values(recorded, of: "sum") == [.number(11), .number(12)])
    }

    @Test func intervalSendsTheMillisecondsSinceTheProgramStarted() throws {
        let recorded = try run("ticks = interval(250ms).take(3)", until: 2_000)
        #expect(values(recorded, of: "ticks") == [250, 500, 750].map { .number($0) })
        #expect(recorded.last?.event == .completed)
    }

    @Test func aClosureThatFailsEndsItsStageOnlyWithTheReasonAndThePlace() throws {
        let recorded = try run(
            """
            input v: text
            lengths = v.map { $0.count }
            broken = lengths.map { 10 / ($0 - 2) }
            """,
            inputs: [(0, "v", .next(.string("abc"))), (1, "v", .next(.string("ab"))), (2, "v", .next(.string("abcd")))]
        )
        // `lengths` is cold and only `broken` reads it: when `broken` fails, its subscription to
        // `lengths` is disposed, and `lengths` sends nothing more (RAC's semantics).
        #expect(values(recorded, of: "lengths") == [3, 2].map { .number($0) })
        let brokenEvents = recorded.filter { $0.stream == "broken" }.map(\.event)
        #expect(
            brokenEvents == [
                .next(.number(10)),
                .error(PipelineFailure(code: "closure_failed", message: "line 3, column 24: division by zero")),
            ]
        )
    }

    @Test func catchAndRetry() throws {
        let recorded = try run(
            """
            input v: number
            safe = v.map { 1 / $0 }.catch { error in just(error.code) }
            """,
            inputs: [(0, "v", .next(.number(2))), (1, "v", .next(.number(0)))]
        )
        #expect(values(recorded, of: "safe") == [.number(0.5), .string("closure_failed")])
    }

    @Test func everyStreamThatReadsANamedStreamSubscribesToItAgain() throws {
        let recorded = try run(
            """
            ticks = interval(100ms).take(2)
            a = ticks.map { $0 }
            b = ticks.map { $0 }
            """,
            until: 500
        )
        // Two subscriptions of `ticks`, each with its own timer: two values each.
        #expect(recorded.filter { $0.stream == "ticks" && $0.event.value != nil }.count == 4)
        #expect(values(recorded, of: "a") == values(recorded, of: "b"))
    }

    @Test func aSharedStreamRunsItsWorkOnceHoweverManyStreamsReadIt() throws {
        let recorded = try run(
            """
            ticks = interval(100ms).take(2).replayLazily()
            a = ticks.map { $0 }
            b = ticks.map { $0 }
            """,
            until: 500
        )
        #expect(recorded.filter { $0.stream == "ticks·take" && $0.event.value != nil }.count == 2, "one timer")
        #expect(values(recorded, of: "a") == values(recorded, of: "b"))
    }

    @Test func whatCannotBeBuiltIsADiagnostic() {
        #expect(buildErrors("input q: text\nx = q.take(-1)") == ["`take` needs a whole number from 0 to 1000000 here"])
        #expect(buildErrors("input q: text\nx = q.throttle(5)") == ["`throttle` needs a duration"])
        #expect(buildErrors("input q: text\nx = q.throttle(0ms)") == ["`throttle` needs a duration from 10ms to 1 hour, not 0ms"])
        #expect(buildErrors("input q: text\nx = q.map(3)") == ["`map` needs a closure here"])
        #expect(
            buildErrors("input q: text\nx = q.flatMap(.fast) { just($0) }") == [
                "`flatMap` needs one of `.latest`, `.merge`, `.concat` or `.concurrent(limit: n)` here"
            ]
        )
        #expect(
            buildErrors("input q: text\nx = q.flatMap(.concurrent(limit: 0)) { just($0) }") == [
                "`.concurrent` needs a whole number of inner streams from 1 to 100"
            ]
        )
        #expect(buildErrors("input q: text\nx = q.flatMap(.concurrent(2)) { just($0) }") == ["`concurrent` takes (limit:), not (_)"])
        #expect(
            buildErrors("input q: text\nx = q.take(untilReplacement: 3)") == [
                "a signal is needed here, not a value"
            ]
        )
        #expect(buildErrors("input q: text\nx = q.flatMap(.latest) { $0 }") == ["a signal is needed here, not a value"])
        #expect(buildErrors("input q: text\nx = q.flatMap(.latest) { v in v }") == ["`v` is a value; a signal is needed here"])
        #expect(buildErrors("input q: text\nx = q.scan { $0 }") == ["`scan` takes (_, _), not (_)"])
        #expect(buildErrors("input q: text\nx = q.buffer(1s)") == ["`buffer` takes (every:), not (_)"])
        #expect(buildErrors("x = interval(1ms)") == ["`interval` needs a duration from 10ms to 1 hour, not 1ms"])
    }
}

@Suite("Pipeline language: every operator of a chain is a stage")
struct StageTests {
    @Test func eachOperatorButTheLastIsAStageNamedAfterItsLine() throws {
        let text = """
            input n: number
            shown = n.filter { $0 > 0 }
                .map { $0 * 2 }
                .map { $0 + 1 }
            """
        let (program, _) = PipelineLanguage.parse(text)
        let summaries = program.summaries
        #expect(summaries.map(\.name) == ["shown·filter", "shown·map", "shown"])
        #expect(summaries.map(\.operator) == ["filter", "map", "map"])
        #expect(summaries.map(\.from) == [["n"], ["shown·filter"], ["shown·map"]])
        #expect(summaries.map(\.stageOf) == ["shown", "shown", nil])
        #expect(summaries.map(\.line) == [2, 3, 2] && summaries[0].column == 11 && summaries[1].column == 6)
        #expect(summaries.map(\.isState) == [true, true, true], "from a text input, with no flattening")

        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let interpreter = try Interpreter(program: program, scheduler: TestScheduler()) { stream, event in
            recorded.withLock { $0.append((stream, event)) }
        }
        interpreter.send(.next(.number(-1)), to: "n")
        interpreter.send(.next(.number(3)), to: "n")
        let events = recorded.withLock { $0 }
        #expect(events.map(\.0) == ["shown·filter", "shown·map", "shown"])
        #expect(events.compactMap(\.1.value) == [.number(3), .number(6), .number(7)])
    }

    @Test func aRepeatedOperatorIsNumberedAndAFlatteningEndsTheStateRule() {
        let (program, _) = PipelineLanguage.parse("input q: text\nx = q.map { $0 }.map { $0 }.flatMap(.latest) { just($0) }.map { $0 }")
        let summaries = program.summaries
        #expect(summaries.map(\.name) == ["x·map", "x·map·2", "x·flatMap", "x"])
        #expect(summaries.map(\.isState) == [true, true, false, false])
    }
}

@Suite("Pipeline language: more operators through the interpreter")
struct MoreOperatorTests {
    func values(_ text: String, send inputs: [Value], to input: String = "n") throws -> [String: [Event<Value, PipelineFailure>]] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let scheduler = TestScheduler()
        let recorded = Lock<[String: [Event<Value, PipelineFailure>]]>([:])
        let interpreter = try Interpreter(program: program, scheduler: scheduler) { stream, event in
            recorded.withLock { $0[stream, default: []].append(event) }
        }
        for value in inputs { interpreter.send(.next(value), to: input) }
        interpreter.send(.completed, to: input)
        scheduler.advance(by: .seconds(10))
        return recorded.withLock { $0 }
    }

    let numbers: [Value] = [1, 2, 3, 4, 1].map { .number($0) }

    /// Values, then completion.
    func events(_ numbers: Double...) -> [Event<Value, PipelineFailure>] {
        numbers.map { .next(.number($0)) } + [.completed]
    }

    @Test func takeAndSkipWithAPredicate() throws {
        let recorded = try values(
            """
            input n: number
            a = n.take(while: { $0 < 3 })
            b = n.take(until: { $0 == 3 })
            c = n.skip(while: { $0 < 3 })
            d = n.skip(until: { $0 == 4 })
            """,
            send: numbers
        )
        #expect(recorded["a"] == events(1, 2))
        #expect(recorded["b"] == events(1, 2))
        #expect(recorded["c"] == events(3, 4, 1))
        #expect(recorded["d"] == events(4, 1))
    }

    @Test func foldsAndTests() throws {
        let recorded = try values(
            """
            input n: number
            deltas = n.combinePrevious(0) { previous, value in value - previous }
            total = n.aggregate(0) { total, value in total + value }
            anyBig = n.any { $0 > 3 }
            allSmall = n.all { $0 < 10 }
            everything = n.collect()
            """,
            send: numbers
        )
        #expect(recorded["deltas"]?.compactMap(\.value) == [1, 1, 1, 1, -3].map { .number($0) })
        #expect(recorded["total"] == [.next(.number(11)), .completed])
        #expect(recorded["anyBig"] == [.next(.bool(true)), .completed])
        #expect(recorded["allSmall"] == [.next(.bool(true)), .completed])
        #expect(recorded["everything"] == [.next(.array(numbers)), .completed])
    }

    @Test func thenConcatAndTimeout() throws {
        let recorded = try values(
            """
            input n: number
            after = n.then { just("done") }
            joined = n.take(1).concat(with: just(99))
            slow = never.timeout(after: 2s)
            """,
            send: [.number(5)]
        )
        #expect(recorded["after"] == [.next(.string("done")), .completed])
        #expect(recorded["joined"] == [.next(.number(5)), .next(.number(99)), .completed])
        #expect(recorded["slow"] == [.error(PipelineFailure(code: "timeout", message: "The stream did not complete within 2000 ms."))])
    }
}
