import Dispatch
import Foundation
import Locking
import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// Programs written to break the checker: each must come back with diagnostics, never a trap, a
/// hang or a stack overflow (a trap on a request path would end every session of the server).
@Suite("Pipeline language: hostile programs")
struct HostileProgramTests {
    @Test func tokenSoupNeverTrapsAndEveryDiagnosticIsInsideTheProgram() {
        let pieces = [
            "a", "b", "input", "=", ":", ".", "map", "filter", "{", "}", "(", ")", "[", "]", "$0", "$99",
            "\"", "\"x\\(", ")\"", "1", "0.5s", "2min", "9e9", ",", "?", "!", "&&", "||", "+", "-", "in",
            "\n", "\n.", "//", "é", "😀", "#", "\\", "text", "choice(", "true", "nil", "[:]", "throttle",
        ]
        var generator = SeededGenerator(seed: 20_261_122)
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...40, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            for diagnostic in PipelineLanguage.check(text) {
                #expect(diagnostic.line >= 1 && diagnostic.line <= lines + 1, "\(text.debugDescription): \(diagnostic)")
                #expect(diagnostic.column >= 1 && diagnostic.endColumn > diagnostic.column)
            }
        }
    }

    @Test func hugeAndDeepProgramsAreRefusedQuickly() {
        let cases = [
            String(repeating: "x", count: 70_000),  // over the size limit
            "a = " + String(repeating: "[", count: 30_000),
            "a = " + String(repeating: "{", count: 30_000),
            "a = just(\"" + String(repeating: "\\(", count: 20_000),
            "a = " + String(repeating: "-", count: 60_000) + "1",
            String(repeating: "a = b\n", count: 10_000),
            "a = just(" + String(repeating: "9", count: 60_000) + ")",
            (0..<5_000).map { "x\($0) = y\($0 + 1).map { $0 }" }.joined(separator: "\n"),
        ]
        for text in cases {
            let clock = ContinuousClock()
            let started = clock.now
            let diagnostics = PipelineLanguage.check(text)
            #expect(!diagnostics.isEmpty)
            #expect(diagnostics.count <= PipelineLanguage.maximumDiagnostics + 1)
            #expect(clock.now - started < .seconds(5), "checking took \(clock.now - started)")
        }
    }

    @Test func aLongUnknownNameGetsNoCostlySuggestion() {
        let name = String(repeating: "q", count: 30_000)
        let diagnostics = PipelineLanguage.check("input query: text\nx = \(name)")
        #expect(diagnostics.contains { $0.message.hasPrefix("unknown name") && $0.hint == "define it as an input or a stream" })
    }
}

/// Programs that would keep a session's thread busy for ever are halted by their step budget:
/// every stream ends with `budget_exceeded`, and control comes back.
@Suite("Pipeline language: runaway programs")
struct RunawayProgramTests {
    func runToHalt(_ text: String) throws -> [(String, Event<Value, PipelineFailure>)] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let scheduler = TestScheduler()
        let clock = ContinuousClock()
        let started = clock.now
        // A small budget, so that even a ThreadSanitizer build (ten times slower) runs out of it
        // long before the refill could keep up.
        let limits = StepBudget.Limits(capacity: 20_000, perSecond: 1_000)
        let interpreter = try Interpreter(program: program, scheduler: scheduler, limits: limits) { stream, event in
            recorded.withLock { $0.append((stream, event)) }
        }
        scheduler.advance(by: .seconds(1))
        interpreter.stop()
        #expect(clock.now - started < .seconds(20), "halting took \(clock.now - started)")
        return recorded.withLock { $0 }
    }

    @Test func aRetryForeverOfAFailureIsHalted() throws {
        let recorded = try runToHalt("x = failure(\"no\").retry()\ny = just(1)")
        // Each retry is a subscription to the failure of its own (`x·failure`, its error each time).
        let retries = recorded.filter { $0.0 == "x·failure" }
        #expect(retries.count > 1 && retries.allSatisfy { $0.1.failure?.code == "failure" })
        // The whole program stops: `y`, built after `x` ran out, ends too, once.
        let streams = recorded.filter { !$0.0.contains("·") }
        #expect(streams.map(\.0) == ["x", "y"])
        #expect(streams.map(\.1.failure?.code) == ["budget_exceeded", "budget_exceeded"])
    }

    /// Reading a named stream spends a step per subscription: resubscribing to one that has
    /// ended once looped for ever without spending any, and kept the program thread busy for good
    /// (every later program on it waited). Run on a worker thread and waited for a bounded time,
    /// so that such a loop fails the test instead of hanging the run.
    @Test(arguments: ["x = just(1)\ny = x.repeat()", "x = empty\ny = x.repeat()", "x = failure(\"no\")\ny = x.retry()"])
    func resubscribingToANamedStreamForEverIsHalted(program: String) throws {
        let outcome = Lock<Result<[(String, Event<Value, PipelineFailure>)], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try runToHalt(program) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard done.wait(timeout: .now() + 30) == .success else {
            Issue.record("the program was not halted within 30 s")
            return
        }
        let recorded = try #require(outcome.withLock { $0 }).get()
        #expect(recorded.last { $0.0 == "y" }?.1.failure?.code == "budget_exceeded")
    }

    @Test func anExplosionOfFlatteningsIsHaltedAndNothingFollowsTheHalt() throws {
        let thousand = "[" + (1...1_000).map(String.init).joined(separator: ", ") + "]"
        let recorded = try runToHalt(
            """
            seeds = from(\(thousand))
            squares = from(\(thousand)).flatMap(.merge) { _ in from(\(thousand)) }
            later = interval(100ms)
            """
        )
        let squares = recorded.filter { $0.0 == "squares" }
        #expect(squares.count < 40_000, "halted long before a million values")
        #expect(squares.last?.1.failure?.code == "budget_exceeded")
        #expect(
            recorded.filter { $0.0 == "later" }.map(\.1.failure?.code) == ["budget_exceeded"],
            "the whole program stopped: the interval never ticked"
        )
        for stream in ["seeds", "squares", "later"] {
            #expect(recorded.filter { $0.0 == stream && $0.1.isTerminating }.count == 1, "\(stream) ended once")
        }
        #expect(recorded.first { $0.0 == "seeds" && $0.1.isTerminating }?.1 == .completed, "seeds had ended before the halt")
    }

    @Test func validatingAProgramRunsNothing() {
        let (program, _) = PipelineLanguage.parse("x = failure(\"no\").retry()")
        #expect(Interpreter.validate(program).isEmpty)
    }
}

extension Event {
    /// The error of an `.error` event.
    var failure: Failure? {
        if case .error(let failure) = self { return failure }
        return nil
    }
}

@Suite("Pipeline language: messages stay short")
struct ShortMessageTests {
    @Test func aLongNameOrUnitIsCutInEveryMessage() {
        let long = String(repeating: "a", count: 50_000)
        for text in ["\(long) query", "x = 1\(long)", "input q: \(long)", "x = just(1) \(long)"] {
            for diagnostic in PipelineLanguage.check(text) {
                #expect(diagnostic.message.count < 200, "\(diagnostic.message.prefix(80))…")
            }
        }
    }
}

/// Programs that chain thousands of synchronous signals, each one's completion starting the next:
/// before the flattenings and `concat` ran such chains as loops, each of these overflowed the
/// program thread's stack and took the whole server down (found by posting them to
/// `/api/marbles`).
@Suite("Pipeline language: thousands of synchronous signals in a row")
struct LongSynchronousChainTests {
    /// The last two events of `stream` (the last value and the end), after a virtual second. These
    /// programs are about the stack, not the CPU: under ThreadSanitizer they take more than the
    /// CPU-time bucket's 0.75 s, so it is widened here (the steps stay the server's).
    func lastEvents(of text: String, stream: String = "b") throws -> [Event<Value, PipelineFailure>] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let recorded = Lock<[Event<Value, PipelineFailure>]>([])
        let scheduler = TestScheduler()
        var limits = StepBudget.Limits.standard
        limits.cpuCapacity = 60
        let interpreter = try Interpreter(program: program, scheduler: scheduler, limits: limits) { name, event in
            if name == stream { recorded.withLock { $0.append(event) } }
        }
        scheduler.advance(by: .seconds(1))
        interpreter.stop()
        return Array(recorded.withLock { $0 }.suffix(2))
    }

    static let values = "[" + (0..<9_000).map(String.init).joined(separator: ",") + "]"

    @Test func concatOfThousandsOfSignals() throws {
        let program =
            "b = concat(" + Array(repeating: "from([1])", count: 4_000).joined(separator: ", ")
            + ").scan(0) { total, v in total + v }.takeLast(1)"
        #expect(try lastEvents(of: program) == [.next(.number(4_000)), .completed])
    }

    @Test func theDeepestChainOfStreamsTheCheckerAcceptsRuns() throws {
        // 502 operators deep (CheckerTests' 501, and `take`): each value travels them as nested calls.
        let program = CheckerTests.chain(streams: 6, perStream: 100).replacingOccurrences(
            of: "interval(10ms)",
            with: "interval(10ms).take(3)"
        )
        #expect(try lastEvents(of: program, stream: "s5") == [.next(.number(30)), .completed])
    }

    @Test(arguments: ["concatMap", "flatMap(.concurrent(limit: 2))"])
    func thousandsOfSignalsWaitingBehindATimer(flattening: String) throws {
        // Both slots of the limited one are held by timers (whose values, 10, are filtered out).
        let program =
            "b = from(\(Self.values)).\(flattening) { v in v < 2 ? timer(after: 10ms) : from([v]) }"
            + ".filter { v in v > 100 }.takeLast(1)"
        #expect(try lastEvents(of: program) == [.next(.number(8_999)), .completed])
    }
}
