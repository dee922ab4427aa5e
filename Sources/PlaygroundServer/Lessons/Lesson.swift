import Foundation
import Scenarios

/// A lesson as docs/LESSONS.md writes it: a file of `Public/lessons/`, or one written on the page
/// and kept by a link. Every field is optional here so that ``LessonCheck`` can say which is
/// missing rather than refuse the whole text.
struct Lesson: Decodable, Sendable {
    /// An input row: `{name, marbles, values?, nested?}`.
    struct Row: Decodable, Sendable {
        let name: String
        let marbles: String
        let values: [String: JSONValue]?
        let nested: [String: String]?

        /// The row as a program line, `a = marbles("-a-b|", a: 1, x: marbles("-1|"))`, as the page writes it.
        var line: String {
            let values = (self.values ?? [:]).sorted { $0.key < $1.key }.map { ", \($0.key): \(EventJSON.json($0.value))" }
            let nested = (self.nested ?? [:]).sorted { $0.key < $1.key }.map { ", \($0.key): marbles(\(EventJSON.json(.string($0.value))))" }
            return "\(name) = marbles(\(EventJSON.json(.string(marbles)))" + values.joined() + nested.joined() + ")"
        }
    }

    /// `{stream, expected}`: how the program subscribes to one stream.
    struct Subscriptions: Decodable, Sendable {
        let stream: String
        let expected: [String]
    }

    /// What the learner changes, and how it is checked.
    struct Challenge: Decodable, Sendable {
        let task: String?
        let inputs: [Row]?
        let expected: [String: String]?
        let program: String?
        let solution: String?
        let subscriptions: [String]?
        let wrong: [String]?
    }

    let id: String?
    let title: String?
    let rac: String?
    let explanation: [String]?
    let inputs: [Row]?
    let program: String?
    let scenario: String?
    let code: String?
    let values: [String: JSONValue]?
    let labels: [String: String]?
    let threads: Bool?
    let inner: String?
    let docs: [String]?
    /// The operators the lesson teaches, as the language spells them (`flatMap(.latest)`): what
    /// later lessons of the course may use (``CourseOrder``).
    let teaches: [String]?
    /// Operators the lesson uses before the lesson that teaches them, by that lesson's id: shown
    /// ahead, and said so on the page ("taught in lesson 7").
    let ahead: [String: String]?
    let predict: String?
    let expected: [String: String]?
    let subscriptions: Subscriptions?
    let result: String?
    let challenge: Challenge?
    /// Questions on the RAC objects the program builds, answered by a real run's (``MachineQuestion``).
    let machine: [MachineQuestion]?

    /// Every field a lesson may have (docs/LESSONS.md's table): any other is a typo to report.
    static let fields: Set<String> = [
        "id", "title", "rac", "explanation", "inputs", "program", "scenario", "code", "values", "labels", "threads", "inner", "docs",
        "teaches", "ahead", "predict", "expected", "subscriptions", "result", "challenge", "machine",
    ]
    /// The fields of `challenge`.
    static let challengeFields: Set<String> = ["task", "inputs", "expected", "program", "solution", "subscriptions", "wrong"]

    /// `inputs` as program lines, then `program`.
    static func program(_ rows: [Row], _ program: String) -> String {
        (rows.map(\.line) + [program]).joined(separator: "\n")
    }

    /// The letters of `rows` with the values they send: a row's `values`, and a letter it gives no
    /// value itself as text, a digit itself as a number (as `marbles(…)` reads them); a letter of
    /// `nested` sends a signal, no value.
    static func letters(of rows: [Row]) -> [String: JSONValue] {
        var letters: [String: JSONValue] = [:]
        for row in rows {
            for (letter, value) in row.values ?? [:] where letters[letter] == nil { letters[letter] = value }
            for character in row.marbles where character.isASCII && (character.isLetter || character.isNumber) {
                let letter = String(character)
                guard letters[letter] == nil, row.nested?[letter] == nil else { continue }
                letters[letter] = character.wholeNumberValue.map { .int($0) } ?? .string(letter)
            }
        }
        return letters
    }
}
