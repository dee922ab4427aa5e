import Foundation
import Logging
import MicroHTTP
import Scenarios
import Testing

@testable import PlaygroundServer

/// Breakpoints stop a virtual clock after the work that meets one (docs/API.md, "Breakpoints"):
/// a serial disposable's swap, a stream's second subscriber; the clock waits there, refusing
/// `advance` until told to go on; a move queued behind the stop is dropped; bad bodies are
/// refused with a reason.
@Suite("Breakpoints: a virtual clock stops where RAC's objects change")
struct BreakpointTests {
    let store: SessionStore
    let router: Router

    init() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
    }

    /// `-a-b-c|` switched to `--x|` each: the switch's serial disposable takes its first inner
    /// subscription at 100 ms, swaps it at 300 and 500.
    static let switching = """
        a = marbles("-a-b-c|")
        out = a.flatMap(.latest) { v in marbles("--x|") }
        """

    func program(_ text: String, clock: String = "virtual") throws -> String {
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/pipelines", query: ["clock": clock], body: Array(text.utf8))
        )
        #expect(created.status == 201, "\(TestRouter.json(created))")
        return try #require(TestRouter.json(created)["session"] as? String)
    }

    func request(_ method: HTTPMethod, _ path: String, _ body: String = "") -> HTTPResponse {
        TestRouter.respond(
            router,
            to: HTTPRequest(method: method, rawPath: path, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        )
    }

    static func code(_ response: HTTPResponse) -> String? {
        (TestRouter.json(response)["error"] as? [String: Any])?["code"] as? String
    }

    func advance(_ id: String, _ milliseconds: Int) -> Int {
        request(.post, "/api/sessions/\(id)/inputs/advance", "\(milliseconds)").status
    }

    /// The hit and the clock's time, once the session's thread has done what was queued.
    func stop(_ id: String) throws -> (hit: [String: Any]?, time: Double?) {
        try #require(store.session(id)).settle()
        let answer = TestRouter.json(request(.get, "/api/sessions/\(id)/breakpoints"))
        return (answer["hit"] as? [String: Any], answer["virtualTime"] as? Double)
    }

    /// The switch's serial disposable, as GET …/inside numbers it.
    func switchNode(_ id: String) throws -> Int {
        let graph = TestRouter.json(request(.get, "/api/sessions/\(id)/inside"))
        let nodes = try #require(graph["nodes"] as? [[String: Any]])
        let serial = nodes.first { ($0["type"] as? String)?.hasPrefix("SwitchCore") == true }
        return try #require(serial?["id"] as? Int)
    }

    @Test func theClockStopsAtEachSwapAndWaitsToBeToldToGoOn() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try program(Self.switching)
        let serial = try switchNode(id)
        #expect(request(.put, "/api/sessions/\(id)/breakpoints", #"{"breakpoints": [{"on": "swapped", "node": \#(serial)}]}"#).status == 200)
        #expect(advance(id, 1_000) == 202)
        var (hit, time) = try stop(id)
        #expect(hit?["t"] as? Double == 100 && hit?["node"] as? Int == serial && hit?["op"] as? String == "swapped", "\(String(describing: hit))")
        #expect(time == 100, "the clock stands at the work that swapped")
        let refused = request(.post, "/api/sessions/\(id)/inputs/advance", "100")
        #expect(refused.status == 409 && Self.code(refused) == "at_breakpoint")
        #expect(request(.post, "/api/sessions/\(id)/breakpoints/continue").status == 200)
        #expect(advance(id, 1_000) == 202)
        (hit, time) = try stop(id)
        #expect(hit?["t"] as? Double == 300 && time == 300, "the next swap: the Jav search's for the Java search's, so to speak")
        // Without breakpoints the clock goes where it is sent.
        #expect(request(.put, "/api/sessions/\(id)/breakpoints", #"{"breakpoints": []}"#).status == 200)
        #expect(advance(id, 1_000) == 202)
        (hit, time) = try stop(id)
        #expect(hit == nil && time == 1_300)
    }

    @Test func aMoveQueuedBehindTheStopIsDropped() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try program(Self.switching)
        let serial = try switchNode(id)
        _ = request(.put, "/api/sessions/\(id)/breakpoints", #"{"breakpoints": [{"on": "swapped", "node": \#(serial)}]}"#)
        // Both are accepted before the first runs — the session's thread is held meanwhile, or
        // the first could stop the clock before the second is asked, which is then 409 — and the
        // second waits with the first's stop.
        let session = try #require(store.session(id))
        let gate = DispatchSemaphore(value: 0)
        _ = session.scheduler.schedule { gate.wait() }
        #expect(advance(id, 1_000) == 202)
        #expect(advance(id, 1_000) == 202)
        gate.signal()
        let (hit, time) = try stop(id)
        #expect(hit?["t"] as? Double == 100 && time == 100)
    }

    @Test func aStreamsSecondSubscriberStopsTheClock() throws {
        defer { store.closeAll(reason: "draining") }
        // `r` is subscribed again by each value of the outer stream: at 200 and at 500 ms.
        let id = try program(
            """
            r = marbles("-a|")
            out = marbles("--1--2|").flatMap(.merge) { v in r }
            """
        )
        #expect(request(.put, "/api/sessions/\(id)/breakpoints", #"{"breakpoints": [{"on": "subscribed", "stream": "r"}]}"#).status == 200)
        #expect(advance(id, 1_000) == 202)
        let (hit, time) = try stop(id)
        #expect(hit?["t"] as? Double == 500 && hit?["op"] as? String == "subscribed" && time == 500)
    }

    @Test(arguments: [
        (#"{"breakpoints": [{"on": "swapped"}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "swapped", "node": 0}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "swapped", "node": 1e300}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "swapped", "node": 1, "extra": true}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "jumps", "node": 1}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "subscribed", "stream": ""}]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "subscribed", "stream": "r", "count": -1}]}"#, "invalid_value"),
        (#"{"breakpoints": 3}"#, "invalid_value"),
        (#"{"breakpoints": [], "more": 1}"#, "invalid_value"),
        (#"[1]"#, "invalid_value"),
        ("{", "invalid_json"),
        (#"{"breakpoints": [\#(Array(repeating: #"{"on": "disposed", "node": 1}"#, count: 17).joined(separator: ","))]}"#, "invalid_value"),
        (#"{"breakpoints": [{"on": "subscribed", "stream": "\#(String(repeating: "é", count: 4_100))"}]}"#, "payload_too_large"),
    ])
    func aBadBodyIsRefusedWithItsReason(_ body: String, _ code: String) throws {
        defer { store.closeAll(reason: "draining") }
        let id = try program(Self.switching)
        let answer = request(.put, "/api/sessions/\(id)/breakpoints", body)
        #expect(Self.code(answer) == code, "\(body.prefix(80)): \(TestRouter.json(answer))")
        #expect(TestRouter.json(request(.get, "/api/sessions/\(id)/breakpoints"))["breakpoints"] as? [Any] != nil)
    }

    @Test func aRealTimeSessionHasNoBreakpoints() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try program(Self.switching, clock: "real")
        let answer = request(.put, "/api/sessions/\(id)/breakpoints", #"{"breakpoints": []}"#)
        #expect(answer.status == 400 && Self.code(answer) == "not_virtual")
    }
}
