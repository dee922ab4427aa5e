import Locking
import Reactive
import Testing

@testable import Pipelines

/// Each operator written in the language gives the very events, at the very times, of the same
/// operator of `Reactive` called from Swift: the same timed inputs go to a program and to subjects
/// on two virtual clocks.
@Suite("Pipeline language: each operator as Reactive's")
struct OperatorParityTests {
    typealias Stream = Signal<Value, PipelineFailure>
    typealias Timed = (time: Int, event: Event<Value, PipelineFailure>)

    /// `n` sends these (time in ms, value), `m` those; both complete at 1,000 ms.
    static let nValues: [(Int, Double)] = [(0, 1), (30, 2), (60, 2), (200, 3), (230, 4), (500, 1)]
    static let mValues: [(Int, Double)] = [(10, 10), (100, 20), (400, 30)]

    static func number(_ value: Value) -> Double {
        if case .number(let number) = value { return number }
        return .nan
    }

    /// The language's expression for `x`, and the same in Swift over `n`, `m` and the clock.
    static let cases: [(program: String, swift: @Sendable (Stream, Stream, TestScheduler) -> Stream)] = [
        ("n.map { $0 * 2 }", { n, _, _ in n.map { .number(number($0) * 2) } }),
        ("n.filter { $0 > 1 }", { n, _, _ in n.filter { number($0) > 1 } }),
        ("n.take(2)", { n, _, _ in n.take(2) }),
        ("n.skip(2)", { n, _, _ in n.skip(2) }),
        ("n.takeLast(2)", { n, _, _ in n.takeLast(2) }),
        ("n.startWith(0)", { n, _, _ in n.startWith(.number(0)) }),
        ("n.distinctUntilChanged()", { n, _, _ in n.distinctUntilChanged() }),
        ("n.ignore(2)", { n, _, _ in n.ignore(.number(2)) }),
        ("n.mapReplace(7)", { n, _, _ in n.mapReplace(.number(7)) }),
        ("n.ignoreValues()", { n, _, _ in n.ignoreValues() }),
        ("n.scan(0) { total, value in total + value }", { n, _, _ in n.scan(.number(0)) { .number(number($0) + number($1)) } }),
        (
            "n.combinePrevious(0) { previous, value in value - previous }",
            { n, _, _ in n.combinePrevious(.number(0)) { .number(number($1) - number($0)) } }
        ),
        ("n.any { $0 > 3 }", { n, _, _ in n.any { number($0) > 3 }.map(Value.bool) }),
        ("n.all { $0 < 4 }", { n, _, _ in n.all { number($0) < 4 }.map(Value.bool) }),
        ("n.throttle(100ms)", { n, _, clock in n.throttle(.milliseconds(100), on: clock) }),
        ("n.rateLimit(100ms)", { n, _, clock in n.rateLimit(.milliseconds(100), on: clock) }),
        ("n.delay(50ms)", { n, _, clock in n.delay(.milliseconds(50), on: clock) }),
        ("n.buffer(every: 100ms)", { n, _, clock in n.buffer(every: .milliseconds(100), on: clock).map(Value.array) }),
        ("n.attemptMap { $0 * 2 }", { n, _, _ in n.map { .number(number($0) * 2) } }),
        ("n.zip(with: m).reduceEach { a, b in a + b }", { n, m, _ in n.zip(with: m).reduceEach { .number(number($0) + number($1)) } }),
        ("n.map { $0 > 2 }.not()", { n, _, _ in n.map { number($0) > 2 }.not().map(Value.bool) }),
        ("n.map { $0 > 1 }.combineLatest(with: m.map { $0 > 15 }).and()", { n, m, _ in bools(n, m).and().map(Value.bool) }),
        ("n.map { $0 > 1 }.combineLatest(with: m.map { $0 > 15 }).or()", { n, m, _ in bools(n, m).or().map(Value.bool) }),
        ("n.aggregate(0) { total, value in total + value }", { n, _, _ in n.aggregate(.number(0)) { .number(number($0) + number($1)) } }),
        ("n.collect()", { n, _, _ in n.collect().map(Value.array) }),
        ("n.then { m }", { n, m, _ in n.then { m } }),
        ("n.map { $0 > 1 }.if(then: m, else: n)", { n, m, _ in Signal.if(n.map { number($0) > 1 }, then: m, else: n) }),
        ("n.materialize()", { n, _, _ in n.materialize().map(Builder.describe).promoteError(PipelineFailure.self) }),
        ("n.materialize().dematerialize()", { n, _, _ in n }),
        ("n.timeout(after: 500ms)", { n, _, clock in n.timeout(after: .milliseconds(500), raising: timeoutFailure(500), on: clock) }),
        ("n.timeout(after: 2s)", { n, _, clock in n.timeout(after: .seconds(2), raising: timeoutFailure(2_000), on: clock) }),
        ("n.deliver(on: session)", { n, _, clock in n.deliver(on: clock) }),
        ("n.subscribe(on: session)", { n, _, clock in n.subscribe(on: clock) }),
        ("n.replay()", { n, _, _ in n.replay() }),
        ("n.replayLast()", { n, _, _ in n.replayLast() }),
        ("n.replayLazily()", { n, _, _ in n.replayLazily() }),
        ("n.publish().autoconnect()", { n, _, _ in n.publish().autoconnect() }),
        ("n.attempt { $0 < 4 }", { n, _, _ in failing(n, message: "line 3, column 15: a value did not pass the test") }),
        ("n.attempt { $0 < 4 }.catch { e in m }", { n, m, _ in failing(n).catch { _ in m } }),
        ("n.attempt { $0 < 4 }.catchTo(m)", { n, m, _ in failing(n).catchTo(m) }),
        ("n.attempt { $0 < 4 }.retry(2).catchTo(just(0))", { n, _, _ in failing(n).retry(2).catchTo(.just(.number(0))) }),
        ("n.take(2).repeat().take(5)", { n, _, _ in n.take(2).repeat().take(5) }),
        ("n.merge(with: m)", { n, m, _ in n.merge(with: m) }),
        ("n.combineLatest(with: m)", { n, m, _ in n.combineLatest(with: m).map { .array([$0, $1]) } }),
        ("n.zip(with: m)", { n, m, _ in n.zip(with: m).map { .array([$0, $1]) } }),
        ("n.concat(with: m)", { n, m, _ in n.concat(m) }),
        ("n.sample(m)", { n, m, _ in n.sample(m) }),
        ("n.withLatest(from: m)", { n, m, _ in n.withLatest(from: m).map { .array([$0, $1]) } }),
        ("n.take(until: m)", { n, m, _ in n.take(until: m) }),
        ("n.take(untilReplacement: m)", { n, m, _ in n.take(untilReplacement: m) }),
        (
            "n.flatMap(.concurrent(limit: 2)) { v in just(v).delay(120ms) }",
            { n, _, clock in n.flatMap(.concurrent(limit: 2)) { Stream.just($0).delay(.milliseconds(120), on: clock) } }
        ),
        (
            "n.flatMap(.latest) { $0 > 2 ? m : just($0) }",
            { n, m, _ in n.flatMap(.latest) { number($0) > 2 ? m : Stream.just($0) } }
        ),
        (
            "n.flatMap(.latest) { v in just(v).delay(50ms) }",
            { n, _, clock in n.flatMap(.latest) { Stream.just($0).delay(.milliseconds(50), on: clock) } }
        ),
        (
            "n.flatMap(.merge) { v in just(v).delay(50ms) }",
            { n, _, clock in n.flatMap(.merge) { Stream.just($0).delay(.milliseconds(50), on: clock) } }
        ),
        (
            "n.flatMap(.concat) { v in just(v).delay(50ms) }",
            { n, _, clock in n.flatMap(.concat) { Stream.just($0).delay(.milliseconds(50), on: clock) } }
        ),
        (
            "n.flattenMap { v in just(v).delay(50ms) }",
            { n, _, clock in n.flatMap(.merge) { Stream.just($0).delay(.milliseconds(50), on: clock) } }
        ),
        (
            "n.concatMap { v in just(v).delay(50ms) }",
            { n, _, clock in n.flatMap(.concat) { Stream.just($0).delay(.milliseconds(50), on: clock) } }
        ),
    ]

    /// `n > 1` and `m > 15`, combined as the language's `combineLatest(with:)` pairs them.
    static func bools(_ n: Stream, _ m: Stream) -> Signal<[Bool], PipelineFailure> {
        n.map { number($0) > 1 }.combineLatest(with: m.map { number($0) > 15 }).map { [$0, $1] }
    }

    /// `n` failing at its first value of 4 or more, as the language's `attempt { $0 < 4 }` fails.
    static func failing(_ n: Stream, message: String = "") -> Stream {
        n.attempt { value throws(PipelineFailure) in
            if number(value) >= 4 { throw PipelineFailure(code: "attempt_failed", message: message) }
        }
    }

    /// The failure of the language's `timeout(after:)`.
    static func timeoutFailure(_ milliseconds: Int) -> PipelineFailure {
        PipelineFailure(code: "timeout", message: "The stream did not complete within \(milliseconds) ms.")
    }

    /// Sends the timed inputs on `clock` through `send`, completing both inputs at 1,000 ms.
    static func drive(_ clock: TestScheduler, _ send: @escaping @Sendable (String, Event<Value, PipelineFailure>) -> Void) {
        for (time, value) in nValues { clock.schedule(after: .milliseconds(time)) { send("n", .next(.number(value))) } }
        for (time, value) in mValues { clock.schedule(after: .milliseconds(time)) { send("m", .next(.number(value))) } }
        clock.schedule(after: .milliseconds(1_000)) {
            send("n", .completed)
            send("m", .completed)
        }
    }

    @Test(arguments: 0..<cases.count)
    func theLanguageGivesWhatReactiveGives(index: Int) throws {
        let (expression, swift) = Self.cases[index]

        let programClock = TestScheduler()
        let fromProgram = Lock<[Timed]>([])
        let (program, diagnostics) = PipelineLanguage.parse("input n: number\ninput m: number\nx = \(expression)")
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let interpreter = try Interpreter(program: program, scheduler: programClock) { stream, event in
            guard stream == "x" else { return }
            fromProgram.withLock { $0.append((Int(programClock.now / .milliseconds(1)), event)) }
        }
        Self.drive(programClock) { input, event in interpreter.send(event, to: input) }
        programClock.advance(to: .seconds(2))
        interpreter.stop()

        let swiftClock = TestScheduler()
        let fromSwift = Lock<[Timed]>([])
        let n = Subject<Value, PipelineFailure>()
        let m = Subject<Value, PipelineFailure>()
        let subscription = swift(n.signal, m.signal, swiftClock).subscribe(
            Subscriber { event in
                fromSwift.withLock { $0.append((Int(swiftClock.now / .milliseconds(1)), event)) }
            }
        )
        Self.drive(swiftClock) { input, event in (input == "n" ? n : m).send(event) }
        swiftClock.advance(to: .seconds(2))
        subscription.dispose()

        let expected = fromSwift.withLock { $0 }
        let actual = fromProgram.withLock { $0 }
        #expect(!expected.isEmpty)
        #expect(
            actual.map(\.time) == expected.map(\.time) && actual.map(\.event) == expected.map(\.event),
            "\(expression): \(actual.map { "\($0.time) \($0.event)" }) ≠ \(expected.map { "\($0.time) \($0.event)" })"
        )
    }
}
