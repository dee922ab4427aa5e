import Testing

@testable import PlaygroundServer

/// "Copy as a test": the Swift a program is written as. Whether it compiles and passes is proven
/// on every gallery entry and example by Tests/e2e/test_copy_as_test.py; these pin its form.
@Suite("Copy as a test")
struct MarbleTestWriterTests {
    func write(_ program: String, name: String = "marbles", streams: [String]? = nil) -> String {
        switch MarbleTestWriter.write(program, name: name, title: "A title", streams: streams) {
        case .success(let source): return source
        case .failure(let refusal):
            Issue.record("refused: \(refusal)")
            return ""
        }
    }

    @Test func aStreamIsStatedAsItsDiagramWithTheValuesOfItsLetters() {
        let source = write("a = marbles(\"-1-2-3-|\")\nout = a.map { $0 * 10 }\n")
        #expect(source.contains("import Pipelines\nimport Reactive\nimport ReactiveTesting\nimport Testing\n"))
        #expect(source.contains("/// A title, stated as a test"))
        #expect(source.contains("@Test func marbles() throws {"))
        #expect(
            source.contains(
                #"#expect(run.events("out") == (try Marbles.events("-a-b-c-|", values: ["a": 10, "b": 20, "c": 30] as [Character: Value], error: ProgramMarbles.noFailure)))"#
            )
        )
        // The row is an input given as ReactiveTesting's cold marbles, stated by its subscriptions.
        let input = "    let a = try Marbles.cold(\n        \"-1-2-3-|\",\n        values: [\"1\": 1, \"2\": 2, \"3\": 3] as [Character: Value],"
        #expect(source.contains(input))
        #expect(source.contains("        input a: number\n        out = a.map { $0 * 10 }\n"))
        #expect(source.contains("        inputs: [\"a\": a.signal],"))
        #expect(source.contains(#"#expect(a.subscriptions == ["^------!"])"#))
        #expect(!source.contains(#"run.events("a")"#))
    }

    /// The program goes in a raw string with enough `#`s: its own `"#` and `\(` stay text.
    @Test func theProgramIsQuotedSoThatNothingInItEndsTheLiteral() {
        let source = write("out = just(\"say \\\"#hi\\\"\").map { v in \"\\(v)!\" }\n")
        #expect(source.contains("##\"\"\"\n        out = just(\"say \\\"#hi\\\"\").map { v in \"\\(v)!\" }\n        \"\"\"##"))
    }

    /// A row the test cannot give as cold marbles (a value that is not a constant, another frame)
    /// stays in the program; its subscriptions are the run's.
    @Test func aRowThatIsNotConstantStaysInTheProgram() {
        let source = write("a = marbles(\"-x|\", x: 1 + 1)\nout = a.map { $0 * 10 }\n")
        #expect(source.contains("        a = marbles(\"-x|\", x: 1 + 1)\n"))
        #expect(source.contains(#"#expect(run.subscriptions("a") == ["^-!"])"#))
        #expect(!source.contains("Marbles.cold"))
    }

    @Test func aFailingRowFailsAsTheProgramsMarblesWould() {
        let source = write("a = marbles(\"-x-#\")\nout = a.catch { error in just(error.message) }\n")
        #expect(source.contains(#"error: PipelineFailure(code: "failure", message: "the diagram's `#` in frame 3"),"#))
    }

    @Test func aKeywordNameIsWrittenInBackticks() {
        #expect(write("out = just(1)\n", name: "catch").contains("@Test func `catch`() throws {"))
    }

    /// RxJS notation draws an event that follows a group closely a frame late: such a stream is
    /// stated event by event instead, at its real frames.
    @Test func aStreamTheNotationCannotPlaceIsStatedEventByEvent() {
        let source = write("out = merge(marbles(\"(ab)|\"), marbles(\"-c|\"))\n")
        #expect(source.contains("Marbles.Recorded<Value, PipelineFailure>(frame: 1, event: .next(\"c\")),"))
    }

    @Test func aFailureIsStatedWithItsCodeAndMessage() {
        let source = write("out = failure(\"boom\")\n")
        #expect(source.contains(#"error: PipelineFailure(code: "failure", message: "boom")"#))
    }

    @Test func aStreamTheProgramDoesNotHaveIsRefused() {
        guard case .failure(.unknownStream("other")) = MarbleTestWriter.write("out = just(1)\n", name: "x", title: nil, streams: ["out", "other"])
        else {
            Issue.record("not refused")
            return
        }
    }

    @Test func aProgramThatDoesNotRunIsRefused() {
        guard case .failure(.program) = MarbleTestWriter.write("out = nothing(1)\n", name: "x", title: nil, streams: nil) else {
            Issue.record("not refused")
            return
        }
    }
}
