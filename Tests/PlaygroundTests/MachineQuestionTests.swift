import Foundation
import MicroHTTP
import Testing

@testable import PlaygroundServer

/// Questions on the machine (docs/LESSONS.md): a lesson's count of RAC objects is the real run's,
/// `POST /api/marbles?inside=MS` answers the objects at an instant, and every broken rule of a
/// question names its field.
@Suite("Questions on the machine")
struct MachineQuestionTests {
    static let lessons = URL(fileURLWithPath: APITests.publicFolder).appendingPathComponent("lessons")

    static func shipped(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: lessons.appendingPathComponent(name))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func check(_ lesson: [String: Any]) throws -> [LessonCheck.Problem] {
        LessonCheck.check(Array(try JSONSerialization.data(withJSONObject: lesson))).problems
    }

    @Test(arguments: ["03-disposing.json", "09-compound-and-serial-disposables.json", "11-replay.json", "12-sharing.json"])
    func aShippedQuestionIsAnsweredByTheRunsObjects(_ name: String) throws {
        let lesson = try Self.shipped(name)
        #expect(try Self.check(lesson) == [], "\(name)")
        // Each answer off by one is refused with the count the run's objects give.
        let questions = try #require(lesson["machine"] as? [[String: Any]])
        for (index, question) in questions.enumerated() {
            var changed = lesson
            var asked = questions
            let answer = try #require(question["answer"] as? Int)
            asked[index]["answer"] = answer + 1
            changed["machine"] = asked
            let problems = try Self.check(changed)
            #expect(
                problems.map(\.field) == ["machine[\(index)].answer"] && problems[0].message.hasSuffix("count \(answer)."),
                "\(name) #\(index): \(problems)"
            )
        }
    }

    @Test func eachBrokenRuleOfAQuestionNamesItsField() throws {
        let lesson = try Self.shipped("12-sharing.json")
        let question = try #require((lesson["machine"] as? [[String: Any]])?.first)
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("machine[0].count", { $0["count"] = "many" }),
            ("machine[0].at", { $0["at"] = -5 }),
            ("machine[0].at", { $0.removeValue(forKey: "at") }),
            ("machine[0].answer", { $0["answer"] = 1_000_000 }),
            ("machine[0].question", { $0["question"] = " " }),
            ("machine[0].result", { $0.removeValue(forKey: "result") }),
            ("machine[0].of", { $0["of"] = "subject" }),
            ("machine[0].unknown", { $0["unknown"] = 1 }),
            ("machine[0].of", { $0.merge(["count": "held", "of": "pump"]) { $1 } }),
            ("machine[0].stream", { $0.merge(["count": "held", "of": "subject"]) { $1 } }),
            ("machine[0].of", { $0.merge(["count": "buffered", "of": "subject", "stream": NSNull()]) { $1 } }),
            ("machine[0].program", { $0["program"] = "shared = a.tak(1)" }),
            // The run has two serial disposables alive at 1,000 ms: no one to ask about.
            (
                "machine[0]",
                { question in
                    question.merge(["count": "held", "of": "serialDisposable"]) { $1 }
                    question.removeValue(forKey: "stream")
                }
            ),
        ]
        for (field, change) in cases {
            var asked = question
            change(&asked)
            asked = asked.filter { !($0.value is NSNull) }
            var changed = lesson
            changed["machine"] = [asked]
            let fields = try Self.check(changed).map(\.field)
            #expect(fields.contains(field), "\(field): \(fields)")
        }
        var none = lesson
        none["machine"] = []
        #expect(try Self.check(none).map(\.field) == ["machine"])
    }

    @Test func theMarblesAnswerHoldsTheObjectsAtAnInstant() throws {
        let router = try TestRouter.make()
        func post(_ query: [String: String]) -> HTTPResponse {
            let body = "a = marbles(\"-a-b-c|\")\nfirst = a.take(1)"
            return TestRouter.respond(router, to: HTTPRequest(method: .post, rawPath: "/api/marbles", query: query, body: Array(body.utf8)))
        }
        let plain = TestRouter.json(post([:]))
        #expect(plain["inside"] == nil, "objects only when asked for")
        let answer = TestRouter.json(post(["inside": "100", "since": "50"]))
        let inside = try #require(answer["inside"] as? [String: Any])
        #expect(inside["at"] as? Double == 100 && inside["since"] as? Double == 50)
        let nodes = try #require(inside["nodes"] as? [[String: Any]])
        let first = try #require(nodes.first { $0["stream"] as? String == "first" && $0["probe"] == nil })
        #expect(first["created"] as? Double == 0 && first["disposed"] as? Double == 100, "\(first)")
        let changes = try #require(inside["changes"] as? [[String: Any]])
        #expect(!changes.isEmpty && changes.allSatisfy { ($0["t"] as? Double ?? 0) > 50 }, "\(changes)")
        for (query, message) in [
            (["inside": "-1"], "inside takes"), (["inside": "nine"], "inside takes"), (["inside": "10", "since": "20"], "later than"),
            (["since": "20"], "which is missing"),
        ] {
            let response = post(query)
            let error = TestRouter.json(response)["error"] as? [String: Any]
            #expect(response.status == 400 && (error?["message"] as? String)?.contains(message) == true, "\(query): \(error ?? [:])")
        }
    }
}
