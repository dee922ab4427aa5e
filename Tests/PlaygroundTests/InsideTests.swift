import Foundation
import Logging
import MicroHTTP
import Scenarios
import Testing

@testable import PlaygroundServer
@testable import Store

/// `GET /api/sessions/{sid}/inside`: a session's RAC objects at an instant, from Reactive's
/// inspection hook, on a virtual clock.
@Suite("Inside: a session's objects at an instant")
struct InsideTests {
    let store: SessionStore
    let router: Router

    init() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        var api = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store)
        api.links = LinkStoreWorker(store: try SQLiteLinkStore(path: ":memory:"))
        api.linkSaves = ClientRateLimiter(perSecond: 1_000, burst: 1_000)
        api.recordingReads = ClientRateLimiter(perSecond: 1_000, burst: 1_000)
        router = api.router()
    }

    func bytes(_ response: HTTPResponse) -> [UInt8] {
        guard case .bytes(let bytes) = response.body else { return [] }
        return bytes
    }

    /// A search session on a virtual clock, typed as `inputs` say (`advance` in milliseconds).
    func search(_ inputs: [(String, String)]) throws -> String {
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/scenarios/search/sessions", query: ["clock": "virtual"])
        )
        #expect(created.status == 201, "\(TestRouter.json(created))")
        let id = try #require(TestRouter.json(created)["session"] as? String)
        for (name, value) in inputs {
            let input = HTTPRequest(method: .post, rawPath: "/api/sessions/\(id)/inputs/\(name)", body: Array(value.utf8))
            #expect(TestRouter.respond(router, to: input).status == 202)
        }
        try #require(store.session(id)).settle()
        return id
    }

    func inside(_ id: String, _ query: [String: String] = [:]) -> (status: Int, json: [String: Any]) {
        let response = TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)/inside", query: query))
        return (response.status, TestRouter.json(response))
    }

    /// Ja, Jav, Java as a learner types them (the defaults: a 500 ms throttle, a 1 s search): `Jav`
    /// is throttled through at 1600 ms, and its search still runs when `Java` is, at 2200 ms. At that
    /// instant switchToLatest's serial disposable swaps the `Jav` search's subscription for the
    /// `Java` search's — the old one let go and disposed before the new one is subscribed.
    @Test func switchToLatestSwapsTheJavSearchForTheJavaSearch() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try search([
            ("advance", "1000"), ("query", "Ja"), ("advance", "100"), ("query", "Jav"),
            ("advance", "600"), ("query", "Java"), ("advance", "1500"),
        ])
        let (status, graph) = inside(id, ["at": "2200", "since": "2199"])
        #expect(status == 200, "\(graph)")
        let changes = try #require(graph["changes"] as? [[String: Any]])
        let swap = try #require(
            changes.first { $0["op"] as? String == "swapped" && ($0["narration"] as? String)?.hasPrefix("switchToLatest") == true }
        )
        let old = try #require(swap["old"] as? Int)
        let new = try #require(swap["new"] as? Int)
        let nodes = try #require(graph["nodes"] as? [[String: Any]])
        func node(_ id: Int) -> [String: Any]? { nodes.first { $0["id"] as? Int == id } }
        #expect(node(old)?["created"] as? Double == 1600, "the Jav search's subscription, made when Jav was throttled through")
        #expect(node(new)?["created"] as? Double == 2200, "the Java search's")
        #expect(node(old)?["disposed"] as? Double == 2200)
        #expect((swap["narration"] as? String)?.contains("disposed before the new one is subscribed") == true)
        // In that order: the swap, then the old search's disposal.
        let swapIndex = try #require(changes.firstIndex { $0["op"] as? String == "swapped" && $0["old"] as? Int == old })
        let disposalIndex = try #require(changes.firstIndex { $0["op"] as? String == "disposed" && $0["node"] as? Int == old })
        #expect(swapIndex < disposalIndex)
        // The serial disposable holds the Java search's subscription then.
        #expect((node(swap["node"] as? Int ?? 0)?["holds"] as? [Int]) == [new])
    }

    /// Before the swap, the switch holds the Jav search; the graph is the same asked twice.
    @Test func theGraphAtAnInstantIsTheObjectsAliveThen() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try search([("advance", "1000"), ("query", "Jav"), ("advance", "1000")])
        let before = inside(id, ["at": "999"])
        let during = inside(id, ["at": "1700"])
        #expect(before.status == 200 && during.status == 200)
        let switchesBefore = (before.json["nodes"] as? [[String: Any]] ?? []).filter { ($0["type"] as? String)?.hasPrefix("SwitchCore") == true }
        #expect(switchesBefore.count == 1)
        #expect(switchesBefore.first?["holds"] as? [Int] == [])
        let switchesDuring = (during.json["nodes"] as? [[String: Any]] ?? []).filter { ($0["type"] as? String)?.hasPrefix("SwitchCore") == true }
        #expect((switchesDuring.first?["holds"] as? [Int])?.count == 1, "the Jav search, throttled through at 1500 ms")
        let asked = HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)/inside", query: ["at": "1700"])
        #expect(bytes(TestRouter.respond(router, to: asked)) == bytes(TestRouter.respond(router, to: asked)))
        #expect((during.json["nodes"] as? [[String: Any]])?.allSatisfy { ($0["racClass"] as? String)?.hasPrefix("RAC") == true } == true)
    }

    /// A kept run keeps its objects: from its link alone, `…/inside` answers at an instant exactly
    /// what the live session answered there.
    @Test func aKeptRunShowsTheSameObjectsAtTheSameInstant() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try search([
            ("advance", "1000"), ("query", "Ja"), ("advance", "100"), ("query", "Jav"),
            ("advance", "600"), ("query", "Java"), ("advance", "1500"),
        ])
        let kept = TestRouter.respond(router, to: HTTPRequest(method: .post, rawPath: "/api/sessions/\(id)/recording"))
        #expect(kept.status == 201, "\(TestRouter.json(kept))")
        let link = try #require(TestRouter.json(kept)["id"] as? String)
        for query in [["at": "2200", "since": "2199"], ["at": "1700"], ["at": "0"]] {
            let live = TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)/inside", query: query))
            let run = TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/links/\(link)/inside", query: query))
            #expect(run.status == 200, "\(TestRouter.json(run))")
            #expect(bytes(run) == bytes(live), "\(query)")
        }
        let bad = TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/links/\(link)/inside", query: ["at": "-3"]))
        #expect(bad.status == 400)
        // A link that is not a run keeps no objects; a link that does not exist is not found.
        let program = TestRouter.respond(
            router,
            to: HTTPRequest(
                method: .post,
                rawPath: "/api/links",
                headers: ["Content-Type": "application/json"],
                body: Array(#"{"kind":"program","title":"Mine","content":"x = just(1)\n"}"#.utf8)
            )
        )
        let programLink = try #require(TestRouter.json(program)["id"] as? String, "\(TestRouter.json(program))")
        let notRun = TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/links/\(programLink)/inside"))
        #expect(notRun.status == 404 && (TestRouter.json(notRun)["error"] as? [String: Any])?["code"] as? String == "not_found")
        #expect(TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/links/zzzzzzzzzz/inside")).status == 404)
    }

    /// Instants from outside are range-checked: a clear 400, never a trap.
    @Test func badInstantsAreRefused() throws {
        defer { store.closeAll(reason: "draining") }
        let id = try search([])
        for query in [["at": "-1"], ["at": "1e400"], ["at": "NaN"], ["since": "x"], ["at": "10", "since": "20"], ["at": "99999999999"]] {
            let (status, json) = inside(id, query)
            #expect(status == 400, "\(query)")
            #expect((json["error"] as? [String: Any])?["code"] as? String == "invalid_value", "\(query)")
        }
        #expect(inside("0123456789abcdef0123456789abcdef").status == 404)
    }
}
