import Locking
import Reactive
import Testing

@testable import Pipelines

/// What a program holds is let go when it stops or is halted: a replay's connection is the
/// program's, and a program halted because the server's memory is short ends every stream.
@Suite("Programs let go of what they hold")
struct ProgramMemoryTests {
    func start(
        _ text: String,
        on scheduler: TestScheduler,
        into recorded: Lock<[(String, Event<Value, PipelineFailure>)]>
    ) throws
        -> Interpreter
    {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        return try Interpreter(program: program, scheduler: scheduler) { stream, event in
            recorded.withLock { $0.append((stream, event)) }
        }
    }

    /// `replay()` connects at once and `replayLazily()` on its first reader: either way, stopping
    /// the program disposes the connection, so its interval stops and its replay is released
    /// (the connection was nobody's, and ran for ever after its session was deleted).
    @Test(arguments: ["x = interval(100ms).replay()", "x = interval(100ms).replayLazily()\ny = x.take(100)"])
    func stoppingAProgramDisposesItsReplaysConnection(_ text: String) throws {
        let scheduler = TestScheduler()
        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let interpreter = try start(text, on: scheduler, into: recorded)
        scheduler.advance(to: .milliseconds(350))
        #expect(recorded.withLock { $0.count } >= 3)
        #expect(scheduler.nextDueTime != nil)
        interpreter.stop()
        #expect(scheduler.step() == false, "the interval still runs")
    }

    /// Halted for memory: every stream ends with `budget_exceeded` saying why, the program stops
    /// sending, and what it scheduled is cancelled; the bytes it sent lately are what the server
    /// compared it by.
    @Test func haltingForMemoryEndsEveryStreamAndStopsTheWork() throws {
        let scheduler = TestScheduler()
        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let interpreter = try start(
            "x = interval(100ms).map { v in \"abcdefghij\" + \"\\(v)\" }.replay()\ny = x.delay(10s)\n",
            on: scheduler,
            into: recorded
        )
        scheduler.advance(to: .milliseconds(1_000))
        #expect(interpreter.recentBytesSent >= 10 * 13, "ten values of 13 bytes or more")
        #expect(!interpreter.isHalted)
        interpreter.haltForMemory()
        #expect(interpreter.isHalted)
        let endings = recorded.withLock { $0.filter { $0.1.isTerminating } }
        #expect(Set(endings.map(\.0)) == ["x", "x·map", "y"])
        for (_, event) in endings {
            guard case .error(let failure) = event else {
                Issue.record("not an error: \(event)")
                continue
            }
            #expect(failure.code == "budget_exceeded")
            #expect(failure.message.contains("memory"))
        }
        #expect(scheduler.step() == false, "the interval and the delayed values are cancelled")
        let count = recorded.withLock { $0.count }
        scheduler.advance(to: .seconds(30))
        #expect(recorded.withLock { $0.count } == count)
    }
}
