import Foundation
import MicroHTTP
@testable import Playground
import Scenarios
import Testing

@Suite("Playground API routes")
struct APITests {
    let router: Router

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Public").standardizedFileURL.path
        router = API(staticFiles: try StaticFiles(root: root), settings: ScenarioSettings()).router()
    }

    private func get(_ path: String, method: HTTPMethod = .get) -> HTTPResponse {
        router.respond(to: HTTPRequest(method: method, rawPath: path))
    }

    private func body(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func healthz() {
        let response = get("/healthz")
        #expect(response.status == 200)
        #expect(body(response) == "ok")
    }

    @Test func catalogueListsTicker() throws {
        let response = get("/api/scenarios")
        #expect(response.status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(body(response).utf8)) as? [String: Any]
        let scenarios = json?["scenarios"] as? [[String: Any]]
        #expect(scenarios?.compactMap { $0["id"] as? String }.contains("ticker") == true)
        let ticker = scenarios?.first { $0["id"] as? String == "ticker" }
        let streams = ticker?["streams"] as? [[String: Any]]
        #expect(streams?.first?["operator"] as? String == "interval")
        #expect(streams?.first?["state"] as? Bool == false)
    }

    @Test func unknownScenarioIs404() {
        for path in ["/api/scenarios/nope", "/api/scenarios/nope/events"] {
            let response = get(path)
            #expect(response.status == 404)
            #expect(body(response).contains(#""code":"unknown_scenario""#))
        }
    }

    @Test func eventsIsAnEventStream() {
        let response = get("/api/scenarios/ticker/events")
        #expect(response.status == 200)
        guard case .eventStream = response.body else {
            Issue.record("expected an event stream")
            return
        }
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "text/event-stream" })
    }

    @Test func pageAndFavicon() {
        let page = get("/")
        #expect(page.status == 200)
        #expect(page.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("text/html") })
        #expect(get("/favicon.svg").status == 200)
    }

    @Test func securityHeadersForbidInlineScript() {
        let csp = API.securityHeaders.first { $0.name == "Content-Security-Policy" }?.value ?? ""
        #expect(csp.contains("default-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(API.securityHeaders.contains { $0.name == "X-Content-Type-Options" && $0.value == "nosniff" })
    }
}
