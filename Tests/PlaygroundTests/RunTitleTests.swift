import Foundation
import MicroHTTP
import Testing

@testable import PlaygroundServer
@testable import Store

/// The maintenance database of the PostgreSQL server the test command starts on loopback.
private let postgresServer = ProcessInfo.processInfo.environment["PLAYGROUND_TEST_POSTGRES"]

/// A kept run's title (docs/API.md, "Recordings"): refused with a reason, or kept and read back
/// exactly as sent — by the rule itself, and through the routes over each store.
@Suite("Recordings: a kept run's title")
struct RunTitleTests {
    /// Titles kept as they are: markup is text, and the most a title may be (200 characters of
    /// four bytes each: 800 bytes) is still a title.
    static let kept = [
        "<b>mine</b> & <script>alert(1)</script>", "Ma recherche « rapide » — 🚀", "שלום עולם", "a  b", "\"quoted\" 'too'",
        String(repeating: "é", count: 200), String(repeating: "🚀", count: 200), "e\u{301}", "👩‍👩‍👧",
    ]

    /// Titles refused, each with the words its refusal must say.
    static let refused: [(title: String, says: String)] = [
        ("", "not blank"), ("   ", "not blank"), ("a\u{7}b", "(U+0007) at character 2"), ("line\nbreak", "(U+000A)"),
        ("tab\there", "(U+0009)"), ("\u{0}", "(U+0000)"), ("next\u{85}line", "(U+0085)"), ("a\u{2028}b", "(U+2028)"),
        ("\u{7F}", "(U+007F)"), (String(repeating: "x", count: 201), "at most 200 characters"),
        (String(repeating: "🚀", count: 201), "at most 800 bytes of UTF-8; this one is 804"), (" leading", "begins or ends with a space"),
        ("trailing ", "begins or ends with a space"),
    ]

    @Test func theRuleKeepsATitleExactlyOrSaysWhyNot() {
        for title in Self.kept {
            guard case .success(let given) = API.runTitle(title) else {
                Issue.record("refused \(title.debugDescription)")
                continue
            }
            #expect(Array(given.utf8) == Array(title.utf8), "changed \(title.debugDescription)")
        }
        for (title, says) in Self.refused {
            guard case .failure(let refusal) = API.runTitle(title) else {
                Issue.record("kept \(title.debugDescription)")
                continue
            }
            #expect(refusal.errorCode == .invalidValue)
            #expect(refusal.message.contains(says), "\(title.debugDescription): \(refusal.message)")
        }
    }

    @Test func aRunsTitleReadsBackExactlyFromSQLite() throws {
        try Self.keepAndReadBack(in: try SQLiteLinkStore(path: ":memory:"))
    }

    @Test(.enabled(if: postgresServer != nil)) func aRunsTitleReadsBackExactlyFromPostgreSQL() throws {
        let server = try #require(postgresServer)
        let name = "playground_test_\(LinkID.random())"
        try Self.run("CREATE DATABASE \(name)", on: server)
        defer { try? Self.run("DROP DATABASE \(name) WITH (FORCE)", on: server) }
        let base = server.hasSuffix("/postgres") ? String(server.dropLast("postgres".count)) : server + "/"
        try Self.keepAndReadBack(in: PostgresLinkStore(url: base + name))
    }

    /// Keeps a session's run under each of ``kept`` and reads each back from `store` byte for
    /// byte; every title of ``refused`` is 400 `invalid_value` with its reason; none is the default.
    static func keepAndReadBack(in store: any LinkStore) throws {
        let router = try TestRouter.make { api in
            api.links = LinkStoreWorker(store: store)
            api.linkSaves = ClientRateLimiter(perSecond: 1_000, burst: 1_000)
            api.recordingReads = ClientRateLimiter(perSecond: 1_000, burst: 1_000)
        }
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/scenarios/search/sessions", query: ["clock": "virtual"], clientAddress: "127.0.0.1")
        )
        let session = try #require(TestRouter.json(created)["session"] as? String)
        let keep = { (body: [UInt8]) in
            TestRouter.respond(
                router,
                to: HTTPRequest(
                    method: .post,
                    rawPath: "/api/sessions/\(session)/recording",
                    headers: ["Content-Type": "application/json"],
                    body: body,
                    clientAddress: "127.0.0.1"
                )
            )
        }
        let read = { (id: String) in
            TestRouter.json(TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: "/api/links/\(id)", clientAddress: "127.0.0.1")))
        }
        let plain = TestRouter.json(keep([]))
        #expect(plain["title"] as? String == "A run of Throttled search")
        for title in kept {
            let answer = keep(Array(try JSONSerialization.data(withJSONObject: ["title": title])))
            let link = TestRouter.json(answer)
            #expect(answer.status == 201, "\(title.debugDescription): \(link)")
            #expect((link["title"] as? String).map { Array($0.utf8) } == Array(title.utf8))
            let id = try #require(link["id"] as? String)
            #expect((read(id)["title"] as? String).map { Array($0.utf8) } == Array(title.utf8), "read back \(title.debugDescription)")
            #expect(try store.link(id).map { Array($0.title.utf8) } == Array(title.utf8), "in the store \(title.debugDescription)")
        }
        for (title, says) in refused {
            let answer = keep(Array(try JSONSerialization.data(withJSONObject: ["title": title])))
            let error = TestRouter.json(answer)["error"] as? [String: Any]
            #expect(answer.status == 400 && error?["code"] as? String == "invalid_value", "\(title.debugDescription)")
            #expect((error?["message"] as? String)?.contains(says) == true, "\(title.debugDescription): \(error ?? [:])")
        }
        let notText = keep(Array(#"{"title": 7}"#.utf8))
        #expect(
            notText.status == 400
                && (TestRouter.json(notText)["error"] as? [String: Any])?["message"] as? String == "title is a string: what the run is called."
        )
    }

    /// Runs `sql` on a connection of its own to `url`, with time to spare on a loaded machine.
    static func run(_ sql: String, on url: String) throws {
        _ = try PostgresConnection(url: url, by: PostgresDeadline(in: .seconds(60))).query(sql)
    }
}
