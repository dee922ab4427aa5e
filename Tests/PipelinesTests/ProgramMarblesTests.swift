import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// `ProgramMarbles`: a program run for a test, its streams recorded as ReactiveTesting compares
/// them, its declared inputs given as cold marbles.
@Suite("Programs run for a test")
struct ProgramMarblesTests {
    func events(_ diagram: String, _ values: [Character: Value]) throws -> [Marbles.Recorded<Value, PipelineFailure>] {
        try Marbles.events(diagram, values: values, error: ProgramMarbles.noFailure)
    }
    @Test func aProgramsStreamsAreRecordedInFrames() throws {
        let run = try ProgramMarbles.run("a = marbles(\"-1-2|\")\nout = a.map { $0 * 10 }\n")
        #expect(run.frame == 100)
        #expect(run.events("out") == (try events("-a-b|", ["a": 10, "b": 20])))
        #expect(run.subscriptions("a") == ["^---!"])
    }

    /// A declared input given a signal reads it, cold: each reader subscribes again, and the cold
    /// input's own subscriptions say so.
    @Test func aDeclaredInputReadsTheSignalItIsGiven() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-1---2---|", values: ["1": 1, "2": 2] as [Character: Value], error: ProgramMarbles.noFailure, on: scheduler)
        let run = try ProgramMarbles.run(
            "input a: number\nout = a.map { $0 * 10 }\nboth = merge(a, a)\n",
            inputs: ["a": a.signal],
            frame: .milliseconds(100),
            on: scheduler
        )
        #expect(run.events("out") == (try events("-a---b---|", ["a": 10, "b": 20])))
        #expect(run.events("both") == (try events("-(11)(22)|", ["1": 1, "2": 2])))
        #expect(a.subscriptions == ["^--------!", "^--------!", "^--------!"])
    }

    /// A signal for a name the program does not declare is not an input: the program cannot read it.
    @Test func anUndeclaredNameGivenASignalIsStillUnknown() {
        #expect(throws: ProgramMarbles.Refusal.self) {
            try ProgramMarbles.run("out = a.map { $0 * 10 }\n", inputs: ["a": Signal<Value, PipelineFailure>.empty])
        }
    }
}
