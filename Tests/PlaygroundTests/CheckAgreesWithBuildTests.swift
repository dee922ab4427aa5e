import Foundation
import Pipelines
import Testing

@testable import PlaygroundServer

/// `POST /api/pipelines/check` finds what running would refuse: what checks clean builds, for
/// a learner's typing and for every program the page ships.
@Suite("The checker and the builder agree")
struct CheckAgreesWithBuildTests {
    /// A number where a duration is needed passed the checker and failed only at Run.
    @Test func aProblemOnlyBuildingFindsIsACheckDiagnostic() {
        let diagnostics = ProgramCheck.diagnostics(of: "input query: text\nx = query.throttle(300)\n")
        #expect(diagnostics.map(\.message) == ["`throttle` needs a duration"])
        #expect(diagnostics.first?.hint == "add a unit: `500ms`, `0.5s` or `2min`")
        #expect(ProgramCheck.diagnostics(of: "input query: text\nx = query.throttle(300ms)\n").isEmpty)
    }

    /// Syntax and name errors come alone: building a program with them would only repeat them.
    @Test func buildingWaitsForTheCheckersErrors() {
        let diagnostics = ProgramCheck.diagnostics(of: "x = qurey.throttle(300)\n")
        #expect(diagnostics.map(\.message) == ["unknown name `qurey`"])
    }

    /// Every lesson's program, starting program and solution, with its rows as `marbles(…)`
    /// lines as the page writes them, and every example: each checks clean and builds.
    @Test func everyShippedProgramChecksCleanAndBuilds() throws {
        var programs = Example.all.map { ("example \($0.id)", $0.program) }
        for (file, lesson) in try Self.lessons() {
            let challenge = lesson["challenge"] as? [String: Any] ?? [:]
            if let program = lesson["program"] as? String {
                programs.append(("\(file) program", try Self.lessonProgram(lesson["inputs"], program)))
            }
            for key in ["program", "solution"] {
                guard let program = challenge[key] as? String else { continue }
                let rows = challenge["inputs"] ?? lesson["inputs"]
                programs.append(("\(file) challenge \(key)", try Self.lessonProgram(rows, program)))
            }
        }
        #expect(programs.count > 40, "the lessons were read")
        for (name, text) in programs {
            let errors = ProgramCheck.diagnostics(of: text).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(name): \(errors.map(\.message))\n\(text)")
            if errors.isEmpty, case .failure(let refusal) = ProgramSession.definition(from: text) {
                Issue.record("\(name) checks clean but does not build: \(refusal.diagnostics.map(\.message))")
            }
        }
    }

    static func lessons() throws -> [(String, [String: Any])] {
        let folder = APITests.publicFolder + "/lessons"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted().map { file in
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
            return (file, try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
        }
    }

    /// The rows as the page's `lessonProgram` writes them (Public/learn/lesson-check.js), then `program`.
    static func lessonProgram(_ rows: Any?, _ program: String) throws -> String {
        let lines = try (rows as? [[String: Any]] ?? []).compactMap { row -> String? in
            guard let name = row["name"] as? String, let marbles = row["marbles"] as? String else { return nil }
            let values = try (row["values"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.map { letter, value in
                ", \(letter): \(try literal(value))"
            }
            let nested = try (row["nested"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map { letter, inner in
                ", \(letter): marbles(\(try literal(inner)))"
            }
            return "\(name) = marbles(\(try literal(marbles))\(values.joined())\(nested.joined()))"
        }
        return (lines + [program]).joined(separator: "\n")
    }

    static func literal(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self)
    }
}
