import Foundation
import Locking
import Logging
import MicroHTTP
import Reactive
import Scenarios
import Testing

@testable import PlaygroundServer

/// A virtual clock is free for the client, not for the server: one request may move it a minute,
/// a session an hour, and the marbles view never draws more than a bounded line.
@Suite("Virtual clock limits")
struct VirtualClockLimitTests {
    let router: Router
    let sessions: SessionStore

    init() throws {
        var limits = SessionStore.Limits()
        limits.session.inputsPerSecond = 10_000
        limits.session.inputBurst = 10_000
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        sessions = SessionStore(settings: ScenarioSettings(), limits: limits, threads: 1, logger: logger)
        router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: sessions).router()
    }

    private func call(_ method: HTTPMethod, _ path: String, query: [String: String] = [:], body: String = "") -> HTTPResponse {
        let request = HTTPRequest(method: method, rawPath: path, query: query, body: Array(body.utf8))
        return router.preflight(request) ?? router.respond(to: request)
    }

    private func errorCode(_ response: HTTPResponse) -> String? {
        guard case .bytes(let bytes) = response.body,
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return (object["error"] as? [String: Any])?["code"] as? String
    }

    private func virtualSession(_ scenario: String) throws -> (id: String, session: Session) {
        let created = call(.post, "/api/scenarios/\(scenario)/sessions", query: ["clock": "virtual"])
        guard case .bytes(let bytes) = created.body,
            let id = (try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["session"] as? String
        else {
            throw CancellationError()
        }
        return (id, try #require(sessions.session(id)))
    }

    @Test func oneAdvanceMovesAMinuteAtMostAndASessionAnHour() throws {
        let (id, _) = try virtualSession("ticker")
        let advance = "/api/sessions/\(id)/inputs/advance"
        #expect(errorCode(call(.post, advance, body: "60001")) == "invalid_value")
        for _ in 0..<60 { #expect(call(.post, advance, body: "60000").status == 202) }
        let refused = call(.post, advance, body: "1")
        #expect(refused.status == 409 && errorCode(refused) == "clock_exhausted")
        #expect(call(.post, advance, body: "0").status == 202, "no time asked, none refused")
        sessions.closeAll(reason: "draining")
    }

    @Test func theSessionTellsTheTimeItsVirtualClockHasReached() async throws {
        let (id, session) = try virtualSession("ticker")
        func info() -> [String: Any] {
            guard case .bytes(let bytes) = call(.get, "/api/sessions/\(id)").body else { return [:] }
            return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        }
        #expect(info()["virtualTime"] as? Double == 0)
        #expect(call(.post, "/api/sessions/\(id)/inputs/advance", body: "2500").status == 202)
        session.settle()
        #expect(info()["virtualTime"] as? Double == 2_500)
        let real = call(.post, "/api/scenarios/ticker/sessions")
        guard case .bytes(let bytes) = real.body,
            let realID = (try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["session"] as? String,
            case .bytes(let realInfo) = call(.get, "/api/sessions/\(realID)").body
        else { throw CancellationError() }
        #expect((try JSONSerialization.jsonObject(with: Data(realInfo)) as? [String: Any])?["virtualTime"] == nil, "a real clock has none")
        sessions.closeAll(reason: "draining")
    }

    @Test func theMarblesViewBoundsItsLines() async throws {
        let (id, session) = try virtualSession("ticker")
        for _ in 0..<10 { #expect(call(.post, "/api/sessions/\(id)/inputs/advance", body: "60000").status == 202) }
        session.settle()
        #expect((session.recordedEvents().last?.t ?? 0) >= 600_000)
        let fine = call(.get, "/api/sessions/\(id)/marbles", query: ["frame": "1"])
        #expect(fine.status == 400 && errorCode(fine) == "invalid_value", "600,000 characters a line is refused")
        let automatic = call(.get, "/api/sessions/\(id)/marbles")
        #expect(automatic.status == 200)
        guard case .bytes(let bytes) = automatic.body else { return }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= SessionMarbles.maximumFrames + 40 }, "the default frame is coarsened")
        sessions.closeAll(reason: "draining")
    }
}

@Suite("TestScheduler step budget")
struct TestSchedulerBudgetTests {
    @Test func advancingStopsWhenTheBudgetRunsOut() {
        let scheduler = TestScheduler()
        let count = Lock(0)
        let ticking = scheduler.schedule(after: .milliseconds(1), repeatingEvery: .milliseconds(1)) { count.withLock { $0 += 1 } }
        #expect(scheduler.advance(to: .seconds(3_600), maximumSteps: 1_000) == false)
        #expect(count.withLock { $0 } == 1_000)
        #expect(scheduler.now == .milliseconds(1_000), "the clock stands where the work reached")
        #expect(scheduler.advance(to: .milliseconds(1_500), maximumSteps: 1_000) == true)
        #expect(count.withLock { $0 } == 1_500)
        ticking.dispose()
    }
}
