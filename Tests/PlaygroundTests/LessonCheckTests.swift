import Foundation
import Testing

@testable import PlaygroundServer

/// The lesson validator, without a server: a lesson that keeps every rule has no problem, each
/// broken rule names its field, and what a lesson draws is written as a lesson writes it.
@Suite("Lesson check")
struct LessonCheckTests {
    /// A small lesson that keeps every rule (docs/LESSONS.md).
    static var lesson: [String: Any] {
        [
            "id": "first-two", "title": "The first two", "rac": "take:",
            "explanation": ["`take(2)` lets two values through."],
            "inputs": [["name": "a", "marbles": "-a-b-c|"]],
            "program": "out = a.take(2)", "predict": "out", "expected": ["out": "-a-(b|)"],
            "result": "a and b, then the end.",
            "challenge": [
                "task": "Send only the first.", "inputs": [["name": "a", "marbles": "-x-y|"]],
                "expected": ["out": "-(x|)"], "solution": "out = a.take(1)", "wrong": ["out = a.take(2)"],
            ],
        ]
    }

    static func check(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> LessonCheck.Report {
        var lesson = Self.lesson
        change(&lesson)
        return LessonCheck.check(Array(try JSONSerialization.data(withJSONObject: lesson)))
    }

    @Test func aLessonThatKeepsEveryRuleHasNoProblem() throws {
        let report = try Self.check()
        #expect(report.problems == [])
        #expect(report.drawn?.lesson.expected["out"] == "-a-(b|)")
        #expect(report.drawn?.challenge.expected["out"] == "-(x|)")
        #expect(report.drawn?.lesson.subscriptions["out"] == ["^--!"])
    }

    @Test func eachBrokenRuleNamesItsField() throws {
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("expected.out", { $0["expected"] = ["out": "-a-b|"] }),
            ("program", { $0["program"] = "out = a.tak(2)" }),
            (
                "challenge.wrong[0]",
                { lesson in
                    var challenge = lesson["challenge"] as! [String: Any]
                    challenge["wrong"] = ["out = a.take(1)"]
                    lesson["challenge"] = challenge
                }
            ),
            ("values", { $0["values"] = ["a": 1] }),
            ("unknown", { $0["unknown"] = true }),
            ("inputs[0].marbles", { $0["inputs"] = [["name": "a", "marbles": 3]] }),
        ]
        for (field, change) in cases {
            let fields = try Self.check(change).problems.map(\.field)
            #expect(fields.contains(field), "\(field): \(fields)")
        }
    }

    @Test func aTypoIsSaidWithItsHintAndItsLineInTheProgram() throws {
        let report = try Self.check { $0["program"] = "\nout = a.tak(2)" }
        let message = try #require(report.problems.first { $0.field == "program" }).message
        #expect(message.contains("line 2:") && message.contains("take"), "\(message)")
    }

    @Test func valuesNoRowNamesGetLettersOfTheirOwn() throws {
        let report = try Self.check {
            $0["program"] = "out = a.map { v in v + \"!\" }.take(2)"
            $0["expected"] = [:]
        }
        // a, b and c are the row's letters: the drawing letters the new values from d on.
        #expect(report.drawn?.lesson.expected["out"] == "-d-(e|)")
        #expect(report.drawn?.values == ["d": .string("a!"), "e": .string("b!")])
    }

    @Test func whatIsNoLessonIsOneClearProblem() {
        for text in ["", "[1]", "{", "\"lesson\""] {
            let report = LessonCheck.check(Array(text.utf8))
            #expect(report.problems.count == 1 && report.drawn == nil, "\(text)")
        }
    }
}
