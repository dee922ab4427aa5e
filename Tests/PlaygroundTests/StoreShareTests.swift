import Foundation
import MicroHTTP
import Store
import Testing

@testable import PlaygroundServer

/// The store's last quarter goes by fair shares (docs/API.md, "Links"): a few addresses, each
/// within its hourly rate, do not take all of what is left.
@Suite("Links: the store's share")
struct StoreShareTests {
    static func keep(_ router: Router, _ text: String, from client: String) -> (status: Int, code: String?) {
        let body = try! JSONSerialization.data(withJSONObject: ["kind": "program", "title": "Mine", "content": "// \(text)\nx = just(1)\n"])
        let request = HTTPRequest(
            method: .post,
            rawPath: "/api/links",
            headers: ["Content-Type": "application/json"],
            body: Array(body),
            clientAddress: client
        )
        let response = TestRouter.respond(router, to: request)
        return (response.status, (TestRouter.json(response)["error"] as? [String: Any])?["code"] as? String)
    }

    static func text(_ bytes: Int) -> String {
        String((0..<bytes).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
    }

    /// Waits for what the store's thread has queued — a link kept measures the store after it
    /// answers — then says the store takes `bytes`, as if measured.
    static func measured(_ bytes: Int, by worker: LinkStoreWorker) {
        let done = DispatchSemaphore(value: 0)
        _ = worker.run(for: "test") { _ in done.signal() }
        done.wait()
        worker.recordSize(bytes, PlaygroundMetrics())
    }

    @Test func nearlyFullTheRestIsShared() throws {
        let worker = LinkStoreWorker(store: try SQLiteLinkStore(path: ":memory:"))
        let router = try TestRouter.make { api in
            api.links = worker
            api.maxStoreBytes = 1_000_000
            api.linkSaves = ClientRateLimiter(perSecond: 100, burst: 100)
            // An hour's bytes refill at 75 KB a second by default: here slowly enough that what was
            // kept is still counted however slow the run (ThreadSanitizer).
            api.linkBytes = ClientRateLimiter(perSecond: 1, burst: Double(API.defaultLinkBytesPerHour))
        }
        Self.measured(700_000, by: worker)
        #expect(Self.keep(router, Self.text(60_000), from: "203.0.113.1").status == 201, "below three quarters, no share")
        #expect(Self.keep(router, Self.text(60_000), from: "203.0.113.1").status == 201)
        Self.measured(800_000, by: worker)
        let refused = Self.keep(router, Self.text(60_000), from: "203.0.113.1")
        #expect(refused.status == 429 && refused.code == "share_used", "it kept 120 KB this hour: more than its share of the 200 KB left")
        #expect(Self.keep(router, Self.text(60_000), from: "198.51.100.2").status == 201, "another address keeps its share")
        Self.measured(800_000, by: worker)  // a link kept measures the store again: as full as before
        #expect(Self.keep(router, Self.text(100), from: "203.0.113.1").status == 429, "however small, while its share is spent")
    }
}
