import Foundation
import MicroHTTP
import Pipelines
import Testing

@testable import PlaygroundServer

/// `POST /api/marbles/find`: which operator turns these inputs into this output?
@Suite("Find by behaviour")
struct MarblesFindTests {
    let router: Router

    init() throws {
        try self.init(burst: 1_000)
    }

    init(burst: Double) throws {
        // No refill to speak of, and no wall-clock cut: a find under ThreadSanitizer, among the
        // other suites, may take seconds, and what these tests read must not depend on it.
        router = try TestRouter.make { api in
            api.marbleFinds = ClientRateLimiter(perSecond: 0.001, burst: burst)
            api.findTimeBudget = .seconds(3_600)
        }
    }

    func post(_ body: Any, contentType: String? = "application/json") -> (status: Int, json: [String: Any]) {
        let bytes = (body as? String).map { Array($0.utf8) } ?? Array((try? JSONSerialization.data(withJSONObject: body)) ?? Data())
        let request = HTTPRequest(
            method: .post,
            rawPath: "/api/marbles/find",
            headers: contentType.map { ["Content-Type": $0] } ?? [:],
            body: bytes
        )
        let response = TestRouter.respond(router, to: request)
        return (response.status, TestRouter.json(response))
    }

    func expressions(_ answer: [String: Any], _ list: String) -> [String] {
        (answer[list] as? [[String: Any]] ?? []).compactMap { $0["expression"] as? String }
    }

    /// The gallery's own entries, written by hand from RAC's semantics: given an entry's input and
    /// its expected output, the find answers the entry's program among its exact matches.
    @Test(arguments: ["filter", "take", "throttle", "distinctUntilChanged", "skip", "delay", "merge", "zip", "sample", "timeout"])
    func aGalleryEntryIsFoundFromItsOwnDiagram(_ id: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: APITests.publicFolder).appendingPathComponent("gallery/entries.json"))
        let gallery = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = (gallery["groups"] as? [[String: Any]] ?? []).flatMap { $0["entries"] as? [[String: Any]] ?? [] }
        let entry = try #require(entries.first { $0["id"] as? String == id })
        let rows = try #require(entry["inputs"] as? [[String: Any]])
        let expected = try #require((entry["expected"] as? [String: Any])?["out"] as? [String: Any])
        var values: [String: Any] = [:]
        for row in rows { values.merge(row["values"] as? [String: Any] ?? [:]) { first, _ in first } }
        // Digits are numbers already; only letters take values.
        for (letter, value) in expected["values"] as? [String: Any] ?? [:] where letter.first!.isLetter { values[letter] = value }
        let inputs = Dictionary(uniqueKeysWithValues: rows.map { ($0["name"] as! String, $0["marbles"] as! String) })
        let (status, answer) = post(["inputs": inputs, "output": expected["marbles"]!, "values": values])
        #expect(status == 200, "\(answer)")
        let program = (entry["program"] as! String).replacingOccurrences(of: "@", with: "").replacingOccurrences(of: "out = ", with: "")
        // The gallery writes two-input operators as functions (`merge(a, b)`); the find, as methods.
        let spellings = [
            program,
            program.replacingOccurrences(of: "merge(a, b)", with: "a.merge(with: b)").replacingOccurrences(of: "zip(a, b)", with: "a.zip(with: b)")
                .replacingOccurrences(of: "0.2s", with: "200ms").replacingOccurrences(of: "0.5s", with: "500ms"),
        ]
        #expect(expressions(answer, "exact").contains { spellings.contains($0) }, "\(expressions(answer, "exact"))")
        #expect(answer["truncated"] as? Bool == false)
    }

    /// With no exact match, the answer says so by an empty `exact`, and gives the nearest outputs,
    /// nearest first, each with its distance and drawing.
    @Test func withoutAnExactMatchTheNearestComeInOrder() throws {
        let (status, answer) = post(["inputs": ["a": "-1-2-3-4-|"], "output": "-9-----|"])
        #expect(status == 200)
        #expect(expressions(answer, "exact") == [])
        let near = try #require(answer["near"] as? [[String: Any]])
        #expect((1...MarblesFind.maximumNear).contains(near.count))
        let distances = near.compactMap { $0["distance"] as? Double }
        #expect(distances == distances.sorted() && distances.allSatisfy { $0 > 0 })
        #expect(near.allSatisfy { ($0["output"] as? [String: Any])?["marbles"] is String && ($0["program"] as? String)?.contains("out = ") == true })
    }

    /// Values of every kind are written into the programs as literals that give them back: a
    /// string with quotes, a backslash and a newline; a negative fraction; an array; an object.
    @Test func valuesOfEveryKindSurviveThePrograms() {
        let values: [String: Any] = ["a": "say \"hi\"\\\n", "b": -2.5, "c": [1, ["k": true]], "d": NSNull()]
        let (status, answer) = post(["inputs": ["s": "-a-b-c-d|"], "output": "-a-b-c-d|", "values": values])
        #expect(status == 200, "\(answer)")
        #expect(expressions(answer, "exact").contains("s.distinctUntilChanged()"))
    }

    @Test func theDistanceIsZeroOnlyForEqualRows() {
        typealias E = FindQuery.Event
        let row = [E(frame: 1, kind: .next, valueJSON: "1"), E(frame: 3, kind: .completed, valueJSON: nil)]
        #expect(MarbleDistance.between(row, row) == 0)
        #expect(MarbleDistance.between(row, Array(row.dropFirst())) == 1, "one event missing")
        #expect(MarbleDistance.between([], row) == 2)
        let late = [E(frame: 2, kind: .next, valueJSON: "1"), E(frame: 4, kind: .completed, valueJSON: nil)]
        #expect(MarbleDistance.between(late, row) == 0.25, "two events a frame late: 0.125 each")
        let other = [E(frame: 1, kind: .next, valueJSON: "2"), E(frame: 3, kind: .completed, valueJSON: nil)]
        #expect(MarbleDistance.between(other, row) == 0.5)
        let failed = [E(frame: 1, kind: .next, valueJSON: "1"), E(frame: 3, kind: .error, valueJSON: nil)]
        #expect(MarbleDistance.between(failed, row) == 2, "an error is never paired with a completion")
    }

    @Test func durationsComeFromTheQuerysOwnTimes() throws {
        let query = try FindQuery.read(Array(#"{"inputs":{"a":"-ab----cd-----|"},"output":"----b-----d---|"}"#.utf8)).get()
        let durations = FindCandidates.durations(for: query)
        #expect(durations.first == 200, "b at 400 ms, 200 ms after the b before it")
        #expect(durations.count <= FindCandidates.maximumDerived && Set(durations).count == durations.count)
    }

    /// Past its time budget a find stops, says why, and answers what it found.
    @Test func aFindPastItsBudgetSaysSo() throws {
        let query = try FindQuery.read(Array(#"{"inputs":{"a":"-1-2-3|"},"output":"-1|"}"#.utf8)).get()
        let answer = MarblesFind.find(query, timeBudget: .zero)
        #expect(answer.truncation?.reason == "time")
        #expect(answer.tried == 0 && answer.candidates > 0)
        let full = MarblesFind.find(query, timeBudget: .seconds(3_600))
        #expect(full.truncation == nil && full.tried == full.candidates)
    }

    @Test func badBodiesAreClearErrors() {
        let cases: [(Any, String)] = [
            ("{", "invalid_json"),
            ("[1]", "invalid_value"),
            (["inputs": ["a": "-1|"]], "invalid_value"),
            (["inputs": ["a": "-1|"], "output": "-1|", "extra": 1], "invalid_value"),
            (["inputs": [:] as [String: Any], "output": "-1|"], "invalid_value"),
            (["inputs": ["a": "-1|", "b": "-1|", "c": "-1|"], "output": "-1|"], "invalid_value"),
            (["inputs": ["out": "-1|"], "output": "-1|"], "invalid_value"),
            (["inputs": ["Bad name": "-1|"], "output": "-1|"], "invalid_value"),
            (["inputs": ["a": 5], "output": "-1|"], "invalid_value"),
            (["inputs": ["a": "-1-(2"], "output": "-1|"], "invalid_value"),
            (["inputs": ["a": "-1|"], "output": "-%|"], "invalid_value"),
            (["inputs": ["a": String(repeating: "-", count: 201)], "output": "|"], "invalid_value"),
            (["inputs": ["a": String(repeating: "1", count: 31)], "output": "|"], "invalid_value"),
            (["inputs": ["a": "-1|"], "output": "-1|", "frame": 5], "invalid_value"),
            (["inputs": ["a": "-1|"], "output": "-1|", "frame": "100"], "invalid_value"),
            (["inputs": ["a": "-1|"], "output": "-1|", "frame": 1e300], "invalid_value"),
            (["inputs": ["a": String(repeating: "-", count: 61)], "output": "|", "frame": 1_000], "invalid_value"),
            (["inputs": ["a": "-x|"], "output": "-x|", "values": ["xy": 1]], "invalid_value"),
            (["inputs": ["a": "-x|"], "output": "-x|", "values": ["1": 1]], "invalid_value"),
            (["inputs": ["a": "-x|"], "output": "-x|", "values": ["x": "\u{7}"]], "invalid_value"),
            (["inputs": ["a": "-x|"], "output": "-x|", "values": ["x": 1e300]], "invalid_value"),
            (["inputs": ["a": "-x|"], "output": "-x|", "values": ["x": String(repeating: "v", count: 2_000)]], "invalid_value"),
            (
                [
                    "inputs": ["a": "-x|"], "output": "-x|",
                    "values": Dictionary(uniqueKeysWithValues: "abcde".map { (String($0), String(repeating: "v", count: 1_000)) }),
                ], "invalid_value"
            ),
        ]
        for (body, code) in cases {
            let (status, answer) = post(body)
            #expect(status == 400, "\(body)")
            let error = answer["error"] as? [String: Any]
            #expect(error?["code"] as? String == code, "\(body)")
            #expect((error?["message"] as? String)?.isEmpty == false)
        }
        #expect(post(["inputs": ["a": "-1|"], "output": "-1|"], contentType: "text/html").status == 415)
        #expect(post(["inputs": ["a": "-1|"], "output": "-1|"], contentType: nil).status == 200, "curl's default")
    }

    @Test func aClientThatFindsTooFastIsRefused() throws {
        let limited = try MarblesFindTests(burst: 2)
        let body: [String: Any] = ["inputs": ["a": "-1|"], "output": "-1|"]
        #expect(limited.post(body).status == 200)
        #expect(limited.post(body).status == 200)
        let refused = limited.post(body)  // a token comes back every 1,000 s
        #expect(refused.status == 429)
        #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "rate_limited")
    }
}
