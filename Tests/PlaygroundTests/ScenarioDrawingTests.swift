import MicroHTTP
import Testing

@testable import PlaygroundServer

/// `POST /api/scenarios/{id}/marbles`: a built-in scenario run on a virtual clock with its inputs as
/// marble rows, drawn as `POST /api/marbles` draws a program.
@Suite("Scenarios as marbles")
struct ScenarioDrawingTests {
    let router: Router

    init() throws {
        try self.init(burst: 1_000)
    }

    init(burst: Double) throws {
        router = try TestRouter.make { $0.marbleRuns = ClientRateLimiter(perSecond: 0.001, burst: burst) }  // no refill within a test
    }

    func post(
        _ scenario: String,
        _ body: String,
        query: [String: String] = [:],
        contentType: String = "application/json"
    ) -> (status: Int, json: [String: Any]) {
        let request = HTTPRequest(
            method: .post,
            rawPath: "/api/scenarios/\(scenario)/marbles",
            query: query,
            headers: ["Content-Type": contentType],
            body: Array(body.utf8)
        )
        let response = TestRouter.respond(router, to: request)
        return (response.status, TestRouter.json(response))
    }

    func stream(_ answer: [String: Any], _ name: String) -> [String: Any] {
        (answer["streams"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    func code(_ answer: [String: Any]) -> String? {
        (answer["error"] as? [String: Any])?["code"] as? String
    }

    /// RACChannel: what is typed into A reaches B through the model and never comes back to A.
    @Test func twoWayBindingIsDrawnWithoutAnEcho() {
        let (status, answer) = post(
            "binding",
            #"{"inputs": {"fieldA": "-----a-----|", "fieldB": "--------b--|"}, "values": {"a": "Grace", "b": "Linus"}}"#
        )
        #expect(status == 200)
        #expect(answer["order"] as? [String] == ["fieldA", "fieldB", "name", "label"])
        #expect(answer["truncated"] as? Bool == false)
        // Typed values keep the rows' letters; the others take free ones.
        let fieldA = stream(answer, "fieldA")
        #expect(fieldA["marbles"] as? String == "(cd)-a--b--|")
        #expect(fieldA["values"] as? [String: String] == ["c": "", "d": "Ada", "a": "Grace", "b": "Linus"])
        let events = fieldA["events"] as? [[String: Any]] ?? []
        #expect(events.map { $0["time"] as? Double } == [0, 0, 500, 800, 1100])
        #expect(events.allSatisfy { $0["thread"] as? String == "session" })
        // One letter per value across the answer: `name`'s "Ada" is fieldA's d.
        #expect(stream(answer, "name")["marbles"] as? String == "d----a--b")
        #expect(stream(answer, "fieldB")["subscriptions"] as? [String] == ["^----------!"])
    }

    /// The schedulers scenario's threads, deterministic on a virtual clock: the run waits for the
    /// queue and the run-loop thread at each instant, so each hop is drawn at its tap's time, and
    /// the bare thread's work is still not run a second later.
    @Test func threadHopsAreDrawnAtTheInstantOfTheirTap() {
        for _ in 0..<5 {
            let (status, answer) = post(
                "schedulers",
                #"{"inputs": {"tap": "-x---|", "scheduleOnBareThread": "--x-|", "scheduleOnRunLoop": "---x------|"}}"#
            )
            #expect(status == 200)
            for (name, thread) in [("source", "session"), ("deliverOnQueue", "queue"), ("deliverOnRunLoop", "run-loop")] {
                let events = stream(answer, name)["events"] as? [[String: Any]] ?? []
                #expect(events.map { $0["time"] as? Double } == [100, 500], "\(name)")
                #expect(events.map { $0["thread"] as? String } == [thread, thread], "\(name)")
            }
            let subscribed = stream(answer, "subscribeOnQueue")["events"] as? [[String: Any]] ?? []
            #expect(subscribed.map { $0["thread"] as? String } == ["queue", "session"])
            let bare = stream(answer, "bareThread")
            // Letters are the answer's: a to d went to the streams before.
            #expect(bare["marbles"] as? String == "--e---------(f|)")
            #expect((bare["values"] as? [String: String])?["f"]?.hasPrefix("still not run after 1000 ms") == true)
            let kept = stream(answer, "keptAliveRunLoop")["events"] as? [[String: Any]] ?? []
            #expect(kept.map { $0["time"] as? Double } == [300, 300, 1000])
            #expect(kept.map { $0["thread"] as? String } == ["session", "run-loop", "session"])
        }
    }

    /// An endless scenario stops at `until`, truncated.
    @Test func aTickerStopsAtUntil() {
        let (status, answer) = post("ticker", "{}", query: ["until": "2500"])
        #expect(status == 200)
        #expect(answer["truncated"] as? Bool == true)
        #expect(answer["until"] as? Double == 2_500)
        #expect(((stream(answer, "timer")["events"] as? [[String: Any]])?.count ?? 0) >= 2)
    }

    @Test func badInputIsAClearError() {
        let cases: [(scenario: String, body: String, query: [String: String], status: Int, code: String)] = [
            ("nothing", "{}", [:], 404, "unknown_scenario"),
            ("binding", "{", [:], 400, "invalid_json"),
            ("binding", String(repeating: "[", count: 100), [:], 400, "invalid_json"),
            ("binding", "[]", [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldC": "-a|"}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": 5}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "-a-"}, "values": {"a": 5}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "-a-"}, "values": {"ab": "x"}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "-a-("}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "\#(String(repeating: "-", count: 201))"}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "\#(String(repeating: "a", count: 31))"}}"#, [:], 400, "invalid_value"),
            ("binding", #"{"inputs": {"fieldA": "\#(String(repeating: "-", count: 100))a"}, "frame": 1000}"#, [:], 400, "invalid_value"),
            ("binding", #"{"frame": 5}"#, [:], 400, "invalid_value"),
            ("binding", #"{"frame": 1e300}"#, [:], 400, "invalid_value"),
            ("binding", #"{"other": 1}"#, [:], 400, "invalid_value"),
            ("binding", "{}", ["until": "0"], 400, "invalid_value"),
            ("binding", "{}", ["until": "99999999999999999999"], 400, "invalid_value"),
        ]
        for item in cases {
            let (status, answer) = post(item.scenario, item.body, query: item.query)
            #expect(status == item.status, "\(item.body)")
            #expect(code(answer) == item.code, "\(item.body)")
            #expect((answer["error"] as? [String: Any])?["message"] as? String != nil, "\(item.body)")
        }
        #expect(post("binding", "{}", contentType: "text/html").status == 415)
    }

    /// A row that fails sends its error into the input: the field's stream fails with it.
    @Test func aFailingRowFailsItsInput() {
        let (status, answer) = post("binding", #"{"inputs": {"fieldA": "-a-#"}, "values": {"a": "Grace"}}"#)
        #expect(status == 200)
        let events = stream(answer, "fieldA")["events"] as? [[String: Any]] ?? []
        #expect(events.last?["kind"] as? String == "error")
        #expect(events.last?["time"] as? Double == 300)
    }

    @Test func aClientThatDrawsTooFastIsRefused() throws {
        let limited = try ScenarioDrawingTests(burst: 2)
        #expect(limited.post("binding", "{}").status == 200)
        #expect(limited.post("binding", "{}").status == 200)
        let (status, answer) = limited.post("binding", "{}")
        #expect(status == 429)
        #expect(code(answer) == "rate_limited")
    }
}
