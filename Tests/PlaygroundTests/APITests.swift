import Foundation
import Logging
import ReactiveTesting
import Scenarios
import Testing

@testable import MicroHTTP
@testable import PlaygroundServer

/// The API's routes, answered by the router directly (no sockets): status codes, bodies and the
/// error precedence of docs/API.md. Streaming flows are covered end to end in Tests/e2e.
@Suite("Playground API routes")
struct APITests {
    let router: Router
    let sessions: SessionStore

    init() throws {
        var limits = SessionStore.Limits()
        limits.maxSessions = 5
        limits.maxSessionsPerClient = 3
        limits.session.inputsPerSecond = 50
        limits.session.inputBurst = 50
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        sessions = SessionStore(settings: ScenarioSettings(), limits: limits, threads: 1, logger: logger)
        router = API(staticFiles: try StaticFiles(root: Self.publicFolder), sessions: sessions).router()
    }

    static var publicFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Public").standardizedFileURL.path
    }

    private func call(
        _ method: HTTPMethod,
        _ path: String,
        body: String = "",
        contentType: String? = nil,
        client: String = "127.0.0.1",
        on other: Router? = nil
    ) -> HTTPResponse {
        let (rawPath, query) = split(path)
        var headers: [String: String] = [:]
        if let contentType { headers["content-type"] = contentType }
        var request = HTTPRequest(
            method: method,
            rawPath: rawPath,
            query: query,
            headers: headers,
            body: Array(body.utf8),
            clientAddress: client
        )
        // As the server does: the preflight answers first, from the head alone, once.
        let router = other ?? self.router
        return (router.preflight(resolving: &request) ?? router.respond(to: request)).resolved()
    }

    private func split(_ path: String) -> (String, [String: String]) {
        let parts = path.split(separator: "?", maxSplits: 1)
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                query[String(kv[0])] = kv.count == 2 ? String(kv[1]) : ""
            }
        }
        return (String(parts[0]), query)
    }

    private func json(_ response: HTTPResponse) -> [String: Any] {
        let bytes: [UInt8]
        switch response.body {
        case .bytes(let body): bytes = body
        case .prepared(let prepared): bytes = prepared.body  // the catalogue, encoded once
        default: return [:]
        }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    private func errorCode(_ response: HTTPResponse) -> String? {
        (json(response)["error"] as? [String: Any])?["code"] as? String
    }

    private func newSession(_ scenario: String = "login", client: String = "127.0.0.1") -> String {
        let response = call(.post, "/api/scenarios/\(scenario)/sessions", client: client)
        return json(response)["session"] as? String ?? ""
    }

    /// The handler uses what its route's preflight found: a session deleted while the body was
    /// being read is still the one the request was checked against, not a second lookup's 404.
    @Test func theHandlerUsesTheSessionItsPreflightFound() {
        let id = newSession()
        var request = HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)")
        #expect(router.preflight(resolving: &request) == nil)
        #expect((request.found as? Session)?.id == id)
        sessions.delete(id)
        let response = router.respond(to: request)
        #expect(response.status == 200)
        #expect(json(response)["session"] as? String == id)
    }

    @Test func healthzAndPage() {
        #expect(call(.get, "/healthz").status == 200)
        let page = call(.get, "/")
        #expect(page.status == 200)
        #expect(page.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/html") })
        #expect(call(.get, "/favicon.svg").status == 200)
    }

    @Test func catalogueListsEveryScenarioWithStreams() {
        let scenarios = json(call(.get, "/api/scenarios"))["scenarios"] as? [[String: Any]] ?? []
        #expect(scenarios.compactMap { $0["id"] as? String } == ["login", "search", "command", "binding", "multicast", "schedulers", "ticker"])
        let search = json(call(.get, "/api/scenarios/search"))
        let streams = search["streams"] as? [[String: Any]] ?? []
        let throttled = streams.first { $0["name"] as? String == "throttled" }
        #expect(throttled?["operator"] as? String == "throttle")
        #expect(throttled?["from"] as? [String] == ["validQuery"])
        #expect(throttled?["state"] as? Bool == true)
        #expect((search["description"] as? String)?.contains("switch to the latest") == true)
        // The page fits the diagram to the story: a query waits out the throttle, then its search.
        #expect(search["timeScale"] as? Int == 1_500)
        let timeScales = Dictionary(uniqueKeysWithValues: scenarios.map { ($0["id"] as? String ?? "", $0["timeScale"] as? Int) })
        #expect(timeScales["ticker"] == 1_000 && timeScales["binding"] == .some(nil), "\(timeScales)")
    }

    @Test func createInfoAndDelete() {
        let created = call(.post, "/api/scenarios/command/sessions")
        #expect(created.status == 201)
        let body = json(created)
        let id = body["session"] as? String ?? ""
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit), "128 random bits as hex")
        #expect(created.headers.contains { $0.name == "Location" && $0.value == "/api/sessions/\(id)" })
        #expect(body["events"] as? String == "/api/sessions/\(id)/events")
        #expect(body["inputs"] as? String == "/api/sessions/\(id)/inputs/")
        let info = json(call(.get, "/api/sessions/\(id)"))
        #expect(info["scenario"] as? String == "command")
        #expect(info["clock"] as? String == "real")
        #expect(info["watchers"] as? Int == 0)
        #expect(call(.delete, "/api/sessions/\(id)").status == 204)
        #expect(errorCode(call(.get, "/api/sessions/\(id)")) == "unknown_session")
    }

    @Test func inputsAreAcceptedInEveryBodyForm() {
        let id = newSession("command")
        let path = "/api/sessions/\(id)/inputs/"
        #expect(call(.post, path + "email", body: "a@b.co").status == 202, "no Content-Type: raw text")
        #expect(call(.post, path + "email", body: "a@b.co", contentType: "application/x-www-form-urlencoded").status == 202)
        #expect(call(.post, path + "email", body: "a@b.co", contentType: "text/plain; charset=utf-8").status == 202)
        #expect(call(.post, path + "email", body: #""a@b.co""#, contentType: "application/json").status == 202)
        #expect(call(.post, path + "allowsConcurrentExecution", body: "true").status == 202)
        #expect(call(.post, path + "execute").status == 202, "an action needs no body")
        #expect(call(.post, path + "execute", contentType: "application/json").status == 202)
    }

    @Test func errorCodesAndPrecedence() {
        let id = newSession()
        let input = "/api/sessions/\(id)/inputs/username"
        #expect(errorCode(call(.post, "/api/scenarios/nope/sessions")) == "unknown_scenario")
        #expect(errorCode(call(.get, "/api/scenarios/nope")) == "unknown_scenario")
        #expect(errorCode(call(.post, "/api/sessions/\(String(repeating: "0", count: 32))/inputs/username")) == "unknown_session")
        #expect(
            errorCode(call(.post, "/api/sessions/\(id)/inputs/nope", contentType: "image/png")) == "unknown_input",
            "404 before 415"
        )
        #expect(errorCode(call(.put, input, contentType: "image/png")) == "method_not_allowed", "405 before 415")
        #expect(errorCode(call(.post, input, body: "{", contentType: "image/png")) == "unsupported_media_type", "415 before 400")
        #expect(errorCode(call(.post, input, body: "{", contentType: "application/json")) == "invalid_json")
        #expect(errorCode(call(.post, input, body: "true", contentType: "application/json")) == "invalid_value")
        // A kilobyte of nested arrays is refused before the decoder, which took 0.7 s over it.
        let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(errorCode(call(.post, input, body: nested, contentType: "application/json")) == "invalid_json")
        let invalidUTF8 = HTTPRequest(method: .post, rawPath: input, headers: [:], body: [0xFF, 0xFE])
        #expect(errorCode(router.respond(to: invalidUTF8)) == "invalid_utf8")
        #expect(errorCode(call(.post, "/api/scenarios/login/sessions?clock=sundial")) == "invalid_value")
        #expect(errorCode(call(.post, "/api/sessions/\(id)/inputs/advance", body: "100")) == "not_virtual")
        #expect(call(.put, input).headers.contains { $0.name == "Allow" && $0.value == "POST" })
    }

    @Test func virtualClockSessionsTakeAdvance() {
        let created = call(.post, "/api/scenarios/search/sessions?clock=virtual")
        #expect(created.status == 201)
        let id = json(created)["session"] as? String ?? ""
        #expect(json(call(.get, "/api/sessions/\(id)"))["clock"] as? String == "virtual")
        let advance = "/api/sessions/\(id)/inputs/advance"
        #expect(call(.post, advance, body: "500").status == 202)
        #expect(call(.post, advance, body: "12.5", contentType: "application/json").status == 202)
        #expect(errorCode(call(.post, advance, body: "-1")) == "invalid_value")
        #expect(errorCode(call(.post, advance, body: "soon")) == "invalid_value")
        #expect(errorCode(call(.post, advance, body: "99999999")) == "invalid_value")
    }

    @Test func sessionCapsAnswer503And429() {
        let ids = (0..<3).map { _ in newSession(client: "10.0.0.1") }
        #expect(ids.allSatisfy { !$0.isEmpty })
        let perClient = call(.post, "/api/scenarios/login/sessions", client: "10.0.0.1")
        #expect(perClient.status == 429 && errorCode(perClient) == "rate_limited")
        _ = (0..<2).map { _ in newSession(client: "10.0.0.2") }
        let full = call(.post, "/api/scenarios/login/sessions", client: "10.0.0.3")
        #expect(full.status == 503 && errorCode(full) == "too_many_sessions")
        #expect(full.headers.contains { $0.name == "Retry-After" })
        sessions.closeAll(reason: "draining")
    }

    /// Instances behind a proxy (`--instance-id`): ids carry the instance, another instance's
    /// session is 421 `misdirected` with its owner, never 404.
    @Test func aNamedInstanceOwnsItsSessionsAndPointsElsewhereForOthers() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, instanceID: "a-1", logger: logger)
        defer { store.closeAll(reason: "draining") }
        let named = API(staticFiles: try StaticFiles(root: Self.publicFolder), sessions: store).router()
        let id = json(call(.post, "/api/scenarios/login/sessions", on: named))["session"] as? String ?? ""
        #expect(id.wholeMatch(of: /a-1\.[0-9a-f]{32}/) != nil, "\(id)")
        #expect(call(.get, "/api/sessions/\(id)", on: named).status == 200)

        let digits = String(repeating: "0", count: 32)
        let elsewhere = call(.post, "/api/sessions/b.\(digits)/inputs/username", body: "x", on: named)
        #expect(elsewhere.status == 421 && errorCode(elsewhere) == "misdirected")
        #expect((json(elsewhere)["error"] as? [String: Any])?["owner"] as? String == "b")
        #expect(call(.get, "/api/sessions/b.\(digits)/events", on: named).status == 421)
        // An unnamed instance knows no named ids either; an id of no instance is simply unknown.
        #expect(call(.get, "/api/sessions/a-1.\(digits)").status == 421)
        #expect(errorCode(call(.get, "/api/sessions/a-1.\(digits)", on: named)) == "unknown_session")
        #expect(errorCode(call(.get, "/api/sessions/\(digits)", on: named)) == "unknown_session")
        #expect(errorCode(call(.get, "/api/sessions/Bad_Name.\(digits)", on: named)) == "unknown_session")
    }

    @Test func aDrainingStoreRefusesNewSessionsAndIsNotReady() {
        #expect(call(.get, "/readyz").status == 200)
        let id = newSession()
        sessions.startDraining()
        let refused = call(.post, "/api/scenarios/login/sessions")
        #expect(refused.status == 503 && errorCode(refused) == "draining")
        #expect(refused.headers.contains { $0.name == "Retry-After" })
        #expect(call(.get, "/api/scenarios/ticker/events").status == 503, "the curl shortcut makes a session too")
        let ready = call(.get, "/readyz")
        #expect(ready.status == 503 && errorCode(ready) == "draining")
        #expect(call(.get, "/api/sessions/\(id)").status == 200, "the live sessions are still served")
        #expect(call(.post, "/api/sessions/\(id)/inputs/username", body: "someone").status == 202)
        sessions.closeAll(reason: "draining")
    }

    @Test func inputRateIsLimitedPerSessionOnly() {
        let busy = newSession("search")
        let calm = newSession("search")
        let statuses = (0..<60).map { _ in call(.post, "/api/sessions/\(busy)/inputs/query", body: "abc").status }
        #expect(statuses.prefix(50).allSatisfy { $0 == 202 }, "at least 50 inputs a second are accepted")
        #expect(statuses.contains(429))
        #expect(call(.post, "/api/sessions/\(calm)/inputs/query", body: "abc").status == 202, "other sessions are unaffected")
    }

    @Test func badInputLeavesOtherSessionsAlone() {
        let id = newSession()
        _ = call(.post, "/api/sessions/\(id)/inputs/username", body: "{", contentType: "application/json")
        #expect(call(.get, "/api/sessions/\(id)").status == 200)
    }

    @Test func checkingAPipelineAnswersItsDiagnostics() {
        let response = call(.post, "/api/pipelines/check", body: "input q: text\nx = q.throtle(1s)")
        #expect(response.status == 200)
        let diagnostics = json(response)["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["message"] as? String == "unknown operator `throtle`")
        #expect(diagnostics.first?["line"] as? Int == 2 && diagnostics.first?["column"] as? Int == 7)
        #expect(diagnostics.first?["hint"] as? String == "did you mean `throttle`?")
        let fine = call(.post, "/api/pipelines/check", body: "x = just(1)", contentType: "application/x-www-form-urlencoded")
        #expect(fine.status == 200 && (json(fine)["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test func checkingAPipelineRefusesOtherMediaTypesAndInvalidUTF8() {
        #expect(errorCode(call(.post, "/api/pipelines/check", body: "{}", contentType: "application/json")) == "unsupported_media_type")
        let request = HTTPRequest(method: .post, rawPath: "/api/pipelines/check", body: [0xff, 0xfe])
        let response = (router.preflight(request) ?? router.respond(to: request)).resolved()
        #expect(response.status == 400 && errorCode(response) == "invalid_utf8")
        #expect(call(.get, "/api/pipelines/check").status == 405)
    }

    @Test func aClientPostingProgramsFasterThanAPersonIsRefusedFromTheHead() throws {
        // The default bursts (10 runs and 20 checks a client), refilling too slowly to matter:
        // what the test reads must not depend on how fast a busy machine makes 21 calls (at the
        // default 20 a second, it once took 3 s and the bucket refilled).
        var api = API(staticFiles: try StaticFiles(root: Self.publicFolder), sessions: sessions)
        api.programChecks = ClientRateLimiter(perSecond: 0.01, burst: 20)
        api.programRuns = ClientRateLimiter(perSecond: 0.01, burst: 10)
        let router = api.router()
        // Then 429 with Retry-After, before the body.
        let checks = (0..<21).map { _ in call(.post, "/api/pipelines/check", body: "x = just(1)", client: "10.0.0.1", on: router) }
        #expect(checks.prefix(20).allSatisfy { $0.status == 200 })
        #expect(checks.last?.status == 429 && errorCode(checks.last!) == "rate_limited")
        #expect(checks.last?.headers.contains { $0.name == "Retry-After" && $0.value == "100" } == true)
        let head = HTTPRequest(method: .post, rawPath: "/api/pipelines/check", body: [], clientAddress: "10.0.0.1")
        #expect(router.preflight(head)?.status == 429, "refused from the head alone")
        #expect(call(.post, "/api/pipelines/check", body: "x = just(1)", client: "10.0.0.2", on: router).status == 200, "another client")

        let runs = (0..<11).map { _ in call(.post, "/api/pipelines", body: "x = just(", client: "10.0.0.3", on: router) }
        #expect(runs.prefix(10).allSatisfy { $0.status == 400 }, "invalid programs count too")
        #expect(runs.last?.status == 429)
        // The media type keeps its precedence.
        #expect(call(.post, "/api/pipelines", body: "{}", contentType: "application/json", client: "10.0.0.3", on: router).status == 415)
    }

    @Test func eventStreamsLoadNothingAndCannotBeFramed() {
        let id = json(call(.post, "/api/scenarios/command/sessions"))["session"] as? String ?? ""
        let streams = [call(.get, "/api/sessions/\(id)/events"), call(.head, "/api/scenarios/ticker/events")]
        for stream in streams {
            let policies = stream.headers.filter { $0.name == "Content-Security-Policy" }.map(\.value)
            #expect(policies == ["default-src 'none'; frame-ancestors 'none'"])
            #expect(stream.headers.contains { $0.name == "Content-Type" && $0.value == "text/event-stream" })
            let sent = headers(stream.headers, over: API.securityHeaders)  // as the server merges them
            let names = Set(sent.map { $0.name.lowercased() })
            #expect(names.isDisjoint(with: ["x-frame-options", "referrer-policy"]), "the policy says both")
            #expect(sent.contains { $0.name == "X-Content-Type-Options" && $0.value == "nosniff" })
        }
        #expect(call(.delete, "/api/sessions/\(id)").status == 204)
    }

    /// Behind the deployment's nginx every session request arrives on a connection of its own, so
    /// a browser's `EventSource` head reaches the server's sorter: Chromium's (as captured from
    /// headless Chromium 156, forwarded as deploy/nginx.conf does, reconnecting with
    /// `Last-Event-ID`) fits the 3 KiB connection memory with the playground's headers.
    @Test func aBrowsersEventStreamHeadThroughTheProxyFitsTheSmallMemory() {
        let head =
            [
                "GET /api/sessions/blue.0123456789abcdef0123456789abcdef/events HTTP/1.1",
                "Host: playground.example.org", "X-Forwarded-For: 203.0.113.74", "X-Forwarded-Proto: https",
                "Pragma: no-cache", "Cache-Control: no-cache", "sec-ch-ua-platform: \"Linux\"",
                "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36",
                "Accept: text/event-stream", "sec-ch-ua: \"Not:A-Brand\";v=\"8\", \"Chromium\";v=\"156\"", "sec-ch-ua-mobile: ?0",
                "Sec-Fetch-Site: same-origin", "Sec-Fetch-Mode: cors", "Sec-Fetch-Dest: empty",
                "Referer: https://playground.example.org/?session=blue.0123456789abcdef0123456789abcdef#search",
                "Accept-Encoding: gzip, deflate, br, zstd", "Accept-Language: en-US,en;q=0.9", "Last-Event-ID: 1234",
            ].joined(separator: "\r\n") + "\r\n\r\n"
        let replyHead = StreamHeadSizing.replyHeadBytes(defaultHeaders: API.securityHeaders)
        let needed = Array(head.utf8).withUnsafeBytes { StreamHeadSizing.memoryNeeded(forHead: $0, replyHeadBytes: replyHead) }
        #expect(needed.map { $0 <= 3_072 } == true, "needs \(needed ?? -1) bytes")
        #expect(ServerConfiguration().eventStreamConnectionMemory.contains(3_072))
    }

    @Test func securityHeadersForbidInlineScript() {
        let csp = API.securityHeaders.first { $0.name == "Content-Security-Policy" }?.value ?? ""
        #expect(csp.contains("default-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
    }
}

@Suite("OpenAPI document")
struct OpenAPITests {
    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
        let url = URL(fileURLWithPath: APITests.publicFolder + "/openapi.json")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        let router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
        let routes = Set(router.registeredRoutes.map { "\($0.method.rawValue.lowercased()) \($0.pattern)" })
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0) \(path)" } })
        #expect(routes == documented, "undocumented: \(routes.subtracting(documented)); stale: \(documented.subtracting(routes))")
    }

    @Test func servedAsJSON() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        let router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
        let response = router.respond(to: HTTPRequest(method: .get, rawPath: "/openapi.json"))
        #expect(response.status == 200)
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
    }
}

@Suite("Marbles view")
struct MarblesViewTests {
    @Test func virtualLoginSessionAtOneMillisecondPerFrameReproducesItsEvents() async throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        let router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
        func post(_ path: String, _ body: String = "") -> Int {
            router.respond(to: HTTPRequest(method: .post, rawPath: path, body: Array(body.utf8))).status
        }
        let created = router.respond(
            to: HTTPRequest(
                method: .post,
                rawPath: "/api/scenarios/login/sessions",
                query: ["clock": "virtual"]
            )
        )
        guard case .bytes(let createdBody) = created.body,
            let id = (try JSONSerialization.jsonObject(with: Data(createdBody)) as? [String: Any])?["session"] as? String,
            let session = store.session(id)
        else {
            Issue.record("no session")
            return
        }
        let inputs = "/api/sessions/\(id)/inputs/"
        for (name, value) in [
            ("advance", "5"), ("username", "us"), ("advance", "5"), ("username", "use"), ("advance", "5"),
            ("username", "user"), ("advance", "7"), ("password", "password"), ("advance", "5"),
            ("submit", ""), ("advance", "1000"),
        ] {
            #expect(post(inputs + name, value) == 202)
        }
        // Inputs are applied on the session's thread, in order: once it has done them all, the
        // sign-in has answered and `signingIn` is back to false.
        func settled(_ events: [RecordedEvent]) -> Bool {
            guard let answer = events.first(where: { $0.stream == "signInResult" && $0.kind == .next }) else { return false }
            return events.contains { $0.stream == "signingIn" && $0.kind == .next && $0.valueJSON == "false" && $0.seq > answer.seq }
        }
        session.settle()
        let recorded = session.recordedEvents()
        #expect(settled(recorded))

        let view = router.respond(to: HTTPRequest(method: .get, rawPath: "/api/sessions/\(id)/marbles", query: ["frame": "1"]))
        guard case .bytes(let bytes) = view.body else {
            Issue.record("no marbles")
            return
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        for stream in Login.description.streams.map(\.name) {
            guard let index = lines.firstIndex(where: { $0.hasPrefix("\(stream): ") }) else {
                Issue.record("no line for \(stream)")
                continue
            }
            let diagram = String(lines[index].dropFirst(stream.count + 2))
            var legend: [Character: String] = [:]
            for line in lines[(index + 1)...] {
                guard line.hasPrefix("  "), line.dropFirst(2).dropFirst().hasPrefix(" = ") else { break }
                legend[line.dropFirst(2).first!] = String(line.dropFirst(6))
            }
            let parsed = try Marbles.parse(diagram)
            let expected = recorded.filter { $0.stream == stream && !$0.kind.isSubscriptionMark }
            #expect(parsed.count == expected.count, "\(stream): \(diagram)")
            for (entry, event) in zip(parsed, expected) {
                guard event.kind == .next else { continue }
                #expect(legend[entry.symbol] == event.valueJSON, "\(stream) value")
                #expect(abs(entry.frame - Int(event.t)) <= 1, "\(stream): frame \(entry.frame) for t \(event.t)")
            }
        }
    }
}
