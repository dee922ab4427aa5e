import Locking
import Reactive
import Testing

@testable import Pipelines

/// Marble sources, `withLatest`, the boolean folds, events as values, `attempt`, `catchTo`,
/// `repeat` and the replays, through the language on a virtual clock; and the names a program
/// cannot use, each refused with what to write instead.
@Suite("Pipeline language: events, marbles and the rest of the operators")
struct EventOperatorTests {
    typealias Timed = (time: Int, event: Event<Value, PipelineFailure>)

    /// Runs `text` on a virtual clock, sending each input at its time (milliseconds), until `until`;
    /// every stream's events with their times.
    func run(
        _ text: String,
        inputs: [(Int, String, Event<Value, PipelineFailure>)] = [],
        until: Int = 10_000
    )
        throws -> [String: [Timed]]
    {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let scheduler = TestScheduler()
        let recorded = Lock<[String: [Timed]]>([:])
        let interpreter = try Interpreter(program: program, scheduler: scheduler) { stream, event in
            let time = Int(scheduler.now / .milliseconds(1))
            recorded.withLock { $0[stream, default: []].append((time, event)) }
        }
        for (time, input, event) in inputs {
            scheduler.schedule(after: .milliseconds(time)) { interpreter.send(event, to: input) }
        }
        scheduler.advance(to: .milliseconds(until))
        interpreter.stop()
        return recorded.withLock { $0 }
    }

    func same(_ recorded: [Timed]?, _ expected: [Timed]) -> Bool {
        guard let recorded, recorded.count == expected.count else { return false }
        return zip(recorded, expected).allSatisfy { $0.time == $1.time && $0.event == $1.event }
    }

    @Test func marblesSendTheirEventsInTheirFramesFromTheSubscription() throws {
        let recorded = try run(
            """
            a = marbles("-a-b--c|", a: 1, b: [2, 3], frame: 100ms)
            b = marbles("x-(y5)-#", frame: 50ms)
            late = timer(after: 1s).flatMap(.merge) { _ in marbles("-z|") }
            """
        )
        #expect(same(recorded["a"], [(100, .next(1)), (300, .next([2, 3])), (600, .next("c")), (700, .completed)]), "\(recorded["a"] ?? [])")
        // Every character takes a frame, as in RxJS: the group starts at frame 2 and takes four.
        #expect(
            same(
                recorded["b"],
                [
                    (0, .next("x")), (100, .next("y")), (100, .next(5)),
                    (350, .error(PipelineFailure(code: "failure", message: "the diagram's `#` in frame 7"))),
                ]
            ),
            "\(recorded["b"] ?? [])"
        )
        // Cold: its frames count from its subscription, one second in.
        #expect(same(recorded["late"], [(1100, .next("z")), (1200, .completed)]), "\(recorded["late"] ?? [])")
    }

    @Test func aMarbleDiagramThatIsNotValidIsADiagnostic() {
        #expect(buildErrors("a = marbles(\"-a-|-b\")") == ["the marble diagram is not valid: nothing may follow `|` or `#`"])
        #expect(buildErrors("a = marbles(\"-(a-\")") == ["the marble diagram is not valid: a group `(` is not closed"])
        #expect(buildErrors("a = marbles(\"-a^b\")").first?.hasPrefix("the marble diagram is not valid: `^` is not marble notation") == true)
        #expect(buildErrors("a = marbles(\"-a-\", ab: 1)") == ["`ab:` is not a letter of the diagram or `frame:`"])
        #expect(buildErrors("a = marbles(\"-a-\", frame: 1ms)") == ["`marbles` needs a duration from 10ms to 1 hour, not 1ms"])
        // A diagram as a letter's value is a literal one, checked when the program is built.
        #expect(buildErrors("a = marbles(\"-x|\", x: marbles(1))") == ["a diagram as a value is `marbles(\"…\")` with its text alone"])
        #expect(buildErrors("a = marbles(\"-x|\", x: marbles(\"-(1\"))") == ["the marble diagram is not valid: a group `(` is not closed"])
        #expect(
            buildErrors("a = marbles(\"" + String(repeating: "-", count: 1_001) + "\")")
                == ["the marble diagram is not valid: a diagram has at most 1000 characters"]
        )
    }

    @Test func withLatestReadsTheOtherStreamsAtEachValue() throws {
        let recorded = try run(
            """
            input user: text
            input password: text
            input submit: action
            login = submit.withLatest(from: user, password).map { _, u, p in u + ":" + p }
            """,
            inputs: [
                (10, "submit", .next(.null)), (20, "user", .next("ann")), (30, "submit", .next(.null)),
                (40, "password", .next("pw")), (50, "submit", .next(.null)), (60, "user", .next("bob")),
                (70, "submit", .next(.null)),
            ]
        )
        // Nothing before both fields have a value; then the fields as they are at each submit.
        #expect(same(recorded["login"], [(50, .next("ann:pw")), (70, .next("bob:pw"))]), "\(recorded["login"] ?? [])")
    }

    @Test func andOrAndReduceEachTakeArrays() throws {
        let recorded = try run(
            """
            input a: bool
            input b: bool
            both = combineLatest(a, b).and()
            either = combineLatest(a, b).or()
            sum = zip(a, b).reduceEach { x, y in (x ? 1 : 0) + (y ? 1 : 0) }
            wrong = a.or()
            """,
            inputs: [(0, "a", .next(true)), (10, "b", .next(false)), (20, "b", .next(true))]
        )
        #expect(recorded["both"]?.compactMap(\.event.value) == [false, true])
        #expect(recorded["either"]?.compactMap(\.event.value) == [true, true])
        #expect(recorded["sum"]?.compactMap(\.event.value) == [1])
        #expect(
            recorded["wrong"]?.last?.event
                == .error(
                    PipelineFailure(
                        code: "closure_failed",
                        message: "line 6, column 10: `or` needs arrays of bools, not a bool"
                    )
                )
        )
    }

    @Test func materializeAndDematerializeRoundTrip() throws {
        let recorded = try run(
            """
            events = marbles("-a-#").materialize()
            back = marbles("-a-#").materialize().dematerialize()
            bad = just(1).dematerialize()
            """
        )
        #expect(
            recorded["events"]?.map(\.event) == [
                .next(["event": "value", "value": "a"]),
                .next(["event": "error", "code": "failure", "message": "the diagram's `#` in frame 3"]),
                .completed,
            ]
        )
        #expect(recorded["back"]?.map(\.event) == [.next("a"), .error(PipelineFailure(code: "failure", message: "the diagram's `#` in frame 3"))])
        #expect(
            recorded["bad"]?.map(\.event) == [
                .error(
                    PipelineFailure(
                        code: "closure_failed",
                        message: "line 3, column 14: `dematerialize` needs events as `materialize` sends them, not a number"
                    )
                )
            ]
        )
    }

    @Test func attemptFailsAtTheFirstValueThatDoesNotPass() throws {
        let recorded = try run(
            """
            input n: number
            checked = n.attempt { $0 > 0 }
            mapped = n.attemptMap { 10 / $0 }
            """,
            inputs: [(0, "n", .next(2)), (10, "n", .next(-1)), (20, "n", .next(3))]
        )
        #expect(
            recorded["checked"]?.map(\.event) == [
                .next(2),
                .error(
                    PipelineFailure(
                        code: "attempt_failed",
                        message: "line 2, column 21: a value did not pass the test"
                    )
                ),
            ]
        )
        #expect(recorded["mapped"]?.compactMap(\.event.value) == [5, -10, .number(10.0 / 3)])
    }

    @Test func catchToRepeatAndTheReplays() throws {
        let recorded = try run(
            """
            rescued = failure("x").catchTo(just("fallback"))
            again = marbles("-a|", frame: 100ms).repeat().take(3)
            input n: number
            kept = n.replay()
            last = n.replayLast()
            lazy = n.replayLazily()
            lateAll = timer(after: 1s).flatMap(.merge) { _ in kept }.take(2)
            lateLast = timer(after: 1s).flatMap(.merge) { _ in last }.take(1)
            """,
            inputs: [(0, "n", .next(1)), (10, "n", .next(2)), (20, "n", .next(3))]
        )
        #expect(recorded["rescued"]?.map(\.event) == [.next("fallback"), .completed])
        #expect(same(recorded["again"], [(100, .next("a")), (300, .next("a")), (500, .next("a")), (500, .completed)]), "\(recorded["again"] ?? [])")
        #expect(recorded["lateAll"]?.compactMap(\.event.value) == [1, 2], "a reader a second later gets what was sent before")
        #expect(recorded["lateLast"]?.compactMap(\.event.value) == [3])
        #expect(recorded["lazy"]?.compactMap(\.event.value) == [1, 2, 3])
    }

    @Test func replayKeepsItsLastThousandValues() throws {
        let sent = (1...1_005).map { (0, "n", Event<Value, PipelineFailure>.next(.number(Double($0)))) }
        let recorded = try run(
            """
            input n: number
            kept = n.replay()
            late = timer(after: 1s).flatMap(.merge) { _ in kept }
            """,
            inputs: sent
        )
        let late = recorded["late"]?.compactMap(\.event.value) ?? []
        #expect(late.count == Builder.replayCapacity)
        #expect(late.first == .number(6) && late.last == .number(1_005), "the oldest five are gone")
    }

    @Test func aConditionalChoosesASignalAndFailsOnAConditionThatIsNotABool() throws {
        let streams = try run(
            """
            input c: number
            x = c.flatMap(.latest) { $0 > 1 ? just("big") : just("small") }
            y = c.flatMap(.latest) { $0 ? just(1) : just(2) }
            """,
            inputs: [(10, "c", .next(.number(1))), (20, "c", .next(.number(2)))]
        )
        #expect(same(streams["x"], [(10, .next(.string("small"))), (20, .next(.string("big")))]))
        guard case .error(let failure)? = streams["y"]?.first?.event else {
            Issue.record("y should fail: \(String(describing: streams["y"]))")
            return
        }
        #expect(failure.message.hasSuffix("`? :` needs a bool before `?`"))
    }

    @Test func namesOutsideTheLanguageAreRefusedWithWhatToWriteInstead() {
        let refused = buildDiagnostics("input q: text\nx = q.map { just($0) }.switchToLatest()")
        #expect(refused.map(\.message) == ["`switchToLatest` needs a stream of streams, and a stream's values are JSON here"])
        #expect(refused.first?.hint?.contains("flatMap(.latest)") == true)
        for name in ["flatten", "groupBy", "doNext", "doError", "doCompleted", "initially", "finally"] {
            #expect(buildErrors("input q: text\nx = q.\(name)()").count == 1, "\(name)")
        }
    }
}
