import Foundation
import Logging
import MicroHTTP
import Pipelines
import Scenarios
import Testing

@testable import PlaygroundServer

/// `POST /api/pipelines`: a program runs as a session like a scenario's — inputs, events, a
/// virtual clock — or is refused with every problem found.
@Suite("Program sessions")
struct ProgramSessionTests {
    let router: Router
    let store: SessionStore

    init() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
    }

    func post(_ path: String, _ body: String, query: [String: String] = [:]) -> HTTPResponse {
        var request = HTTPRequest(method: .post, rawPath: path, query: query, body: Array(body.utf8))
        return (router.preflight(resolving: &request) ?? router.respond(to: request)).resolved()
    }

    func json(_ response: HTTPResponse) -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    @Test func aProgramRunsAsASessionOnAVirtualClock() async throws {
        let created = post(
            "/api/pipelines",
            """
            input query: text
            valid = query.filter { $0.count > 2 }
            throttled = valid.throttle(500ms)
            """,
            query: ["clock": "virtual"]
        )
        #expect(created.status == 201)
        let body = json(created)
        #expect(body["scenario"] as? String == "pipeline")
        let pipeline = body["pipeline"] as? [String: Any] ?? [:]
        let streams = (pipeline["streams"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
        #expect(streams == ["valid", "throttled"])
        #expect(pipeline["timeScale"] as? Int == 500, "the program's story: its throttle")
        guard let id = body["session"] as? String, let session = store.session(id) else {
            Issue.record("no session: \(body)")
            return
        }
        for (name, value) in [("query", "sw"), ("query", "swe"), ("advance", "100"), ("query", "swed"), ("advance", "600")] {
            #expect(post("/api/sessions/\(id)/inputs/\(name)", value).status == 202)
        }
        session.settle()
        // The session subscribed `throttled`, which subscribed `valid`, before any input.
        let subscriptions = session.recordedEvents().filter { $0.kind == .subscribed }.map(\.stream)
        #expect(subscriptions == ["throttled", "valid"])
        let recorded = session.recordedEvents().filter { $0.kind == .next }.map { ($0.stream, $0.valueJSON, $0.t) }
        #expect(
            recorded.map(\.0) == ["input:query", "input:query", "valid", "input:query", "valid", "throttled"],
            "each input is recorded before what it propagates"
        )
        #expect(recorded.last?.1 == #""swed""#)
        #expect(recorded.last?.2 == 600, "throttled 500 ms after the last valid query, at 100 ms")
    }

    @Test func aProgramThatCannotRunIsRefusedWithItsDiagnostics() {
        let refused = post("/api/pipelines", "input q: text\nx = q.throtle(1s)\ny = qq")
        #expect(refused.status == 400)
        let error = json(refused)["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "pipeline_invalid")
        let diagnostics = error["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["line"] as? Int } == [2, 3])
        let unbuildable = json(post("/api/pipelines", "input q: text\nx = q.take(-1)"))["error"] as? [String: Any]
        #expect(
            (unbuildable?["diagnostics"] as? [[String: Any]])?.first?["message"] as? String
                == "`take` needs a whole number from 0 to 1000000 here"
        )
        #expect(store.count == 0, "no session was made")
    }

    @Test func theExamplesAreListedAndEachRunsAsASession() {
        let listed = router.respond(to: HTTPRequest(method: .get, rawPath: "/api/pipelines/examples"))
        #expect(listed.status == 200)
        let examples = json(listed)["examples"] as? [[String: Any]] ?? []
        #expect(examples.count == Example.all.count && !examples.isEmpty)
        for example in examples {
            let created = post("/api/pipelines", example["program"] as? String ?? "")
            #expect(created.status == 201, "\(example["id"] ?? "?"): \(json(created))")
            if let id = json(created)["session"] as? String { store.delete(id) }
        }
    }

    @Test func warningsComeWithTheSession() {
        let created = post("/api/pipelines", "input unused: text\nx = just(1)")
        #expect(created.status == 201)
        let diagnostics = (json(created)["pipeline"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.first?["severity"] as? String == "warning")

        // The session's own answer carries the same `pipeline` object; a scenario's has none.
        let id = json(created)["session"] as? String ?? ""
        var request = HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)")
        let info = json((router.preflight(resolving: &request) ?? router.respond(to: request)).resolved())
        let pipeline = info["pipeline"] as? [String: Any]
        #expect((pipeline?["streams"] as? [[String: Any]])?.map { $0["name"] as? String } == ["x"])
        #expect((pipeline?["inputs"] as? [[String: Any]])?.first?["name"] as? String == "unused")
        #expect((pipeline?["diagnostics"] as? [[String: Any]])?.count == 1)
        let scenario = json(post("/api/scenarios/ticker/sessions", ""))["session"] as? String ?? ""
        var other = HTTPRequest(method: .get, rawPath: "/api/sessions/\(scenario)")
        #expect(json((router.preflight(resolving: &other) ?? router.respond(to: other)).resolved())["pipeline"] == nil)
    }
}
