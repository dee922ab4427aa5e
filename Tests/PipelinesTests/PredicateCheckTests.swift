import Testing

@testable import Pipelines

/// The checker warns of a test closure that plainly gives no bool (docs/PIPELINES.md,
/// "Diagnostics"), and of nothing that could give one.
@Suite("Pipeline language: tests that give no bool")
struct PredicateCheckTests {
    /// The warnings about test closures among `text`'s diagnostics.
    func warnings(_ text: String) -> [Diagnostic] {
        PipelineLanguage.check(text).filter { $0.message.contains("closure must give a bool") }
    }

    @Test func aRemainderInAFilterIsFlaggedAtItsBodyWithAComparisonToWrite() throws {
        let found = warnings("a = marbles(\"-1-2|\")\nkept = a.filter { $0 % 2 }")
        try #require(found.count == 1)
        #expect(found[0].severity == .warning)
        #expect(found[0].message == "`filter`'s closure must give a bool, and this one gives a number: the stream fails at its first value")
        #expect(found[0].hint == "compare it, so that it gives true or false: `$0 % 2 == 0`")
        #expect(found[0].line == 2 && found[0].column == 19 && found[0].endColumn == 25)
    }

    @Test(arguments: [
        ("x = just(1).filter { 1 }", "a number"),
        ("x = just(1).filter { 100ms }", "a number"),
        ("x = just(1).filter { \"yes\" }", "a string"),
        ("x = just(1).filter { \"\\($0)\" }", "a string"),
        ("x = just(1).filter { v in v % 2 }", "a number"),
        ("x = just(1).filter { -$0 }", "a number"),
        ("x = just(1).filter { $0 + 1 }", "a number, a string or an array"),
        ("x = just(1).filter { \"a\" + $0 }", "a string"),
        ("x = just(1).filter { [1] + [2] }", "an array"),
        ("x = just(1).filter { $0 > 1 ? 1 : \"no\" }", "a number or a string"),
        ("x = just(1).any { [$0] }", "an array"),
        ("x = just(1).all { [\"a\": $0] }", "an object"),
        ("x = just(1).attempt { null }", "null"),
        ("x = just(1).take(while: { $0 * 2 })", "a number"),
        ("x = just(1).take(until: { $0 / 2 })", "a number"),
        ("x = just(1).skip(while: { $0 - 1 })", "a number"),
        ("x = just(1).skip(until: { 0 })", "a number"),
        ("x = just(1).flatMap(.latest) { v in just(v).filter { 2 } }", "a number"),
    ])
    func aBodyThatIsPlainlyNoBoolIsFlagged(_ text: String, _ kind: String) {
        let found = warnings(text)
        #expect(found.count == 1, "\(text)")
        #expect(found.first?.message.contains("gives \(kind):") == true, "\(text): \(found)")
    }

    @Test(arguments: [
        "x = just(true).filter { $0 }",
        "x = just(1).filter { $0 % 2 == 0 }",
        "x = just(1).filter { $0 % 2 != 0 && $0 > 1 }",
        "x = just(false).filter { !$0 }",
        "x = just([\"done\": true]).filter { $0.done }",
        "x = just([\"count\": true]).filter { $0.count }",
        "x = just(\"a\").filter { $0.isEmpty }",
        "x = just(\"a\").filter { $0.contains(\"a\") }",
        "x = just([true]).filter { $0[0] }",
        "x = just(1).filter { $0 > 1 ? true : 1 }",
        "x = just(1).filter { v in v }",
        "x = just(1).map { $0 % 2 }",
        "x = just(1).scan(0) { total, value in total + value }",
        "x = just(1).take(3)",
        "x = just(1).take(until: just(2))",
        "x = just(1).take(while: { $0 < 3 })",
        "x = just(1).catch { error in just(1) }",
    ])
    func aBodyThatMayGiveABoolIsNotFlagged(_ text: String) {
        #expect(warnings(text).isEmpty, "\(text)")
    }

    /// A warning, not an error: the program runs, and its test fails the stream at the first value,
    /// with the message the page shows under its `#`.
    @Test func theProgramStillRunsAndFailsAtItsFirstValue() throws {
        let run = try ProgramMarbles.run("a = marbles(\"-1-2|\")\nkept = a.filter { $0 % 2 }\n")
        let events = run.events("kept")
        try #require(events.count == 1)
        #expect(events[0].frame == 1)
        #expect(events[0].event.failure?.message == "line 2, column 17: `filter`'s closure must give a bool")
    }

    /// Each operator the table says has tests fails a run whose test gives a number, at its first
    /// value, and the checker flags it: the table's declaration is the builder's behaviour.
    @Test(arguments: PredicateCheck.predicates.flatMap { name, labels in labels.map { (name, $0) } }.sorted { "\($0)" < "\($1)" })
    func everyTestTheTableDeclaresFailsARunOnANumber(_ name: String, _ label: String?) throws {
        let call = label.map { "\(name)(\($0): { 5 })" } ?? "\(name) { 5 }"
        let program = "a = marbles(\"-1|\")\nout = a.\(call)\n"
        #expect(warnings(program).count == 1, "\(program)")
        let run = try ProgramMarbles.run(program)
        #expect(run.events("out").compactMap(\.event.failure).first?.message.contains("`\(name)`'s closure must give a bool") == true, "\(program)")
    }

    @Test func theTableDeclaresTheOperatorsWithTests() {
        #expect(
            PredicateCheck.predicates == [
                "filter": [nil], "any": [nil], "all": [nil], "attempt": [nil], "take": ["while", "until"], "skip": ["while", "until"],
            ]
        )
    }
}
