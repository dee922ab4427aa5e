import Testing

@testable import Pipelines

/// Names, operators, cycles and limits (docs/PIPELINES.md, "Diagnostics").
@Suite("Pipeline language: checking")
struct CheckerTests {
    func check(_ text: String) -> [Diagnostic] { PipelineLanguage.check(text) }

    @Test func aGoodProgramHasNoDiagnostics() {
        #expect(
            check(
                """
                input query: text
                valid = query.filter { $0.count > 2 }.distinctUntilChanged()
                results = valid.throttle(0.5s).flatMap(.latest) { search($0) }
                shown = combineLatest(valid, results).map { q, r in "\\(q): \\(r.count)" }
                """
            ).isEmpty
        )
    }

    @Test func anUnknownOperatorIsReportedAtItsNameWithASuggestion() {
        let diagnostics = check("input q: text\nx = q.throtle(1s)")
        #expect(diagnostics.count == 1)
        #expect(diagnostics[0].message == "unknown operator `throtle`")
        #expect(diagnostics[0].hint == "did you mean `throttle`?")
        #expect(diagnostics[0].line == 2 && diagnostics[0].column == 7 && diagnostics[0].endColumn == 14)
    }

    @Test func anUnknownNameIsReportedWithASuggestion() {
        let diagnostics = check("input query: text\nx = qurey.map { $0 }")
        #expect(diagnostics.contains { $0.message == "unknown name `qurey`" && $0.hint == "did you mean `query`?" && $0.column == 5 })
        #expect(diagnostics.contains { $0.severity == .warning && $0.message == "the input `query` is not used by any stream" })
    }

    @Test func namesAreDefinedOnceAndNotReserved() {
        let diagnostics = check("input a: text\na = a.map { $0 }\nthrottle = just(1)\nadvance = just(2)\nend = just(3)")
        #expect(
            diagnostics.map(\.message) == [
                "`a` is already defined on line 1", "`throttle` is a reserved name", "`advance` is a reserved name",
                "`end` is a reserved name",
            ]
        )
    }

    @Test func streamsMayUseLaterStreamsButNotInACircle() {
        #expect(check("a = b.map { $0 }\nb = just(1)").isEmpty, "a later line is fine")
        let diagnostics = check("a = b.map { $0 }\nb = c.filter { $0 > 1 }\nc = merge(a, just(1))\nd = d.map { $0 }")
        #expect(
            diagnostics.map(\.message) == [
                "`a` is defined through itself: `a` → `b` → `c` → `a`",
                "`d` is defined through itself: `d` → `d`",
            ]
        )
        #expect(diagnostics[0].line == 1 && diagnostics[1].line == 4)
    }

    @Test func closureParametersAreNamesInsideTheClosureOnly() {
        #expect(check("x = just(1).map { value in value + 1 }").isEmpty)
        #expect(check("x = just([1, 2]).map { a, b in a + b }").isEmpty)
        #expect(check("x = just(1).map { value in value + 1 }.filter { value > 1 }").map(\.message) == ["unknown name `value`"])
        #expect(check("x = just($0)").map(\.message) == ["`$0`, `$1`… can only be used inside a closure"])
    }

    @Test func fieldsOfValuesInsideClosuresAreNotOperators() {
        #expect(check("x = just([\"name\": \"Ada\"]).map { $0.name.lowercased() }").isEmpty)
    }

    @Test func limits() {
        let big = String(repeating: "// padding\n", count: 7_000)
        #expect(check(big).first?.message.hasSuffix("at most 65536 are accepted") == true)
        let many = (0..<201).map { "s\($0) = just(\($0))" }.joined(separator: "\n")
        #expect(check(many).first?.message == "the program defines 201 inputs and streams; at most 200 are accepted")
    }

    @Test func manyBlankLinesAndALongChainOfStreamsAreCheap() {
        let blank = "a = just(1)" + String(repeating: "\n", count: 60_000) + "b = a"
        #expect(check(blank).isEmpty)
        let chain = (1..<200).map { "s\($0) = s\($0 - 1).map { $0 }" }.joined(separator: "\n") + "\ns0 = just(1)"
        #expect(check(chain).isEmpty)
    }
    /// `count` streams, each reading the one before through `perStream` operators.
    static func chain(streams count: Int, perStream: Int) -> String {
        (["s0 = interval(10ms)"] + (1..<count).map { "s\($0) = s\($0 - 1)" + String(repeating: ".skip(0)", count: perStream) })
            .joined(separator: "\n")
    }

    @Test func aChainOfStreamsTooDeepIsRefusedOnceWhereItCrossesTheLimit() {
        // `interval(10ms)` is one call; each stream adds 100 operators: s5 is 501 deep, s6 601.
        let diagnostics = check(Self.chain(streams: 12, perStream: 100))
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first?.line == 7)
        #expect(
            diagnostics.first?.message == "`s6` is too deep: with the streams it reads, a chain of 601 operators (at most 512)"
        )
        #expect(diagnostics.first?.hint == "shorten the chain of streams that leads here")
        #expect(check(Self.chain(streams: 6, perStream: 100)).isEmpty, "up to s5: 501")
    }

    @Test func aChainThroughAClosureCountsToo() {
        let deep = (1..<12).map { "s\($0) = s\($0 - 1)" + String(repeating: ".skip(0)", count: 100) }
        let program = (["s0 = interval(10ms)"] + deep.prefix(4) + ["s5 = just(1).flatMap(.latest) { _ in s4 }"] + deep.dropFirst(5))
            .joined(separator: "\n")
        // s5 reads s4 (401 deep) in its closure: s7 crosses the limit, not s11 (as it would if
        // s5 started a chain of its own).
        #expect(check(program).map(\.line) == [8])
    }
}

@Suite("Pipeline language: the shipped examples")
struct ExampleTests {
    @Test(arguments: Example.all.map(\.id))
    func everyExampleChecksCleanAndBuilds(_ id: String) throws {
        let example = try #require(Example.all.first { $0.id == id })
        #expect(PipelineLanguage.check(example.program).isEmpty, "\(PipelineLanguage.check(example.program))")
        let (program, _) = PipelineLanguage.parse(example.program)
        let search = Service(arity: 1, usage: "search(query)") { _ throws(PipelineFailure) in .empty }
        #expect(Interpreter.validate(program, services: ["search": search]).isEmpty)
    }

    @Test func idsAreUnique() {
        #expect(Set(Example.all.map(\.id)).count == Example.all.count)
    }
}
