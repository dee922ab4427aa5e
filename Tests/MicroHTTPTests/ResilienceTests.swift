import Foundation
import Testing

@testable import MicroHTTP

/// What a public server must survive: slow heads, vanished clients, big heads, and memory that
/// must come back after a flood.
@Suite("Server resilience")
struct ResilienceTests {
    private func waitUntil(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    @Test func aTricklingHeadIsClosedAtItsDeadlineWhileOthersAreServed() throws {
        let server = try TestServer { $0.requestTimeout = .milliseconds(600) }
        let slow = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let started = ContinuousClock.now
        slow.send("GET /hello/slow HTTP/1.1\r\n")
        var closed = false
        // One byte every 100 ms: libmicrohttpd's idle timeout would restart with each.
        for _ in 0..<40 where !closed {
            slow.send("X")
            Thread.sleep(forTimeInterval: 0.1)
            #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
            closed = ContinuousClock.now - started > .milliseconds(1_200)
        }
        #expect(slow.waitForClose(), "the trickling head is closed")
        #expect(ContinuousClock.now - started < .milliseconds(2_000), "within the deadline and one sweep")
        #expect(server.metric("microhttp_request_deadlines_expired_total") == 1)
    }

    @Test func aSilentSocketIsClosedAtTheDeadlineButARequestInTimeIsServed() throws {
        let server = try TestServer { $0.requestTimeout = .milliseconds(500) }
        let silent = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let prompt = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        prompt.send("GET /hello/a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(prompt.read { $0.contains("hello a") }.contains("200 OK"))
        let started = ContinuousClock.now
        #expect(silent.waitForClose())
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(prompt.waitForClose(), "an idle keep-alive connection ends at the deadline too")
    }

    @Test func sendingABodyCountsAgainstTheDeadline() throws {
        let server = try TestServer { $0.requestTimeout = .milliseconds(500) }
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        for _ in 0..<20 {
            client.send("x")
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(client.waitForClose())
        #expect(!client.readToEnd().contains("200 OK"))
    }

    @Test func unfinishedConnectionsCountAgainstThePerClientCap() throws {
        let cap = 2
        let server = try TestServer { $0.maxConnectionsPerClient = cap }
        let held = try (0..<(cap + ServerConfiguration.perClientConnectionAllowance)).map { _ in
            try RawHTTPClient(port: server.port, timeoutSeconds: 2)
        }
        for client in held { client.send("GET /hel") }  // heads never finished
        #expect(waitUntil(.seconds(2)) { server.metric("microhttp_open_connections") == 10 })
        let beyond = try RawHTTPClient(port: server.port, timeoutSeconds: 2)
        #expect(beyond.waitForClose(), "a socket beyond the cap and its allowance is refused at once")
    }

    @Test(arguments: ["close", "reset"])
    func anIdleStreamWhoseClientLeftIsReleasedAtOnce(how: String) throws {
        let server = try TestServer()  // keep-alive comments every 15 s: no write to find out with
        do {
            let clients = try (0..<20).map { _ in try RawHTTPClient(port: server.port) }
            for client in clients {
                client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                client.read { $0.contains("second line") }
                if how == "reset" { client.resetOnClose() }
            }
            #expect(server.server.openEventStreams == 20)
        }
        let started = ContinuousClock.now
        #expect(waitUntil(.seconds(3)) { server.server.openEventStreams == 0 })
        #expect(ContinuousClock.now - started < .seconds(1), "released within a second, not at the next keep-alive")
        #expect(server.endedStreams.value == 20)
        #expect(server.metric("microhttp_sse_hangups_total") == 20)
    }

    @Test func headsUpTo8KiBAreServedAndBiggerOnesAre431() throws {
        let server = try TestServer()  // the default connection memory
        let cookie = "Cookie: session=" + String(repeating: "c", count: 7_000)
        let accepted = try RawHTTPClient.request(server.port, "GET", "/hello/cookie", headers: [cookie])
        #expect(accepted.status == 200 && accepted.body == "hello cookie")
        let big = "Cookie: session=" + String(repeating: "c", count: 9_000)
        let refused = try RawHTTPClient.request(server.port, "GET", "/hello/cookie", headers: [big])
        #expect(refused.status == 431)
        #expect(refused.body.contains(#""code":"headers_too_large""#))
        let huge = "Cookie: session=" + String(repeating: "c", count: 40_000)
        #expect(
            try RawHTTPClient.request(server.port, "GET", "/hello/cookie", headers: [huge]).status == 431,
            "past the connection memory libmicrohttpd answers 431 itself"
        )
        #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
    }

    /// Only where glibc's allocator keeps the books (not under ThreadSanitizer's own allocator).
    /// The shared trimmer's quiet period is a second, and the other tests' connections may keep
    /// it from pausing: then it trims at its longest delay.
    @Test(.enabled(if: ProcessMemory.heapBytesInUse() > 0))
    func freedMemoryIsHandedBackOnceReleasesPause() throws {
        let server = try TestServer()
        // 64 MiB in small blocks, every other one freed: the holes cannot shrink the heap's top, so
        // glibc keeps them unless trimmed.
        var blocks: [[UInt8]?] = (0..<16_384).map { _ in [UInt8](repeating: 1, count: 4_096) }
        for index in stride(from: 0, to: blocks.count, by: 2) { blocks[index] = nil }
        let trimsBefore = HeapTrimmer.shared.trimCount
        // Closing a connection is a release. The trim may fall to another test's server (the heap
        // is the process's): count the process's trims.
        #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
        let timeout = HeapTrimmer.shared.longestDelay + .seconds(2)
        #expect(waitUntil(timeout) { HeapTrimmer.shared.trimCount > trimsBefore })
        #expect(blocks.compactMap { $0 }.count == 8_192)
    }

    @Test func residentMemoryIsReadWithoutTheAllocator() throws {
        let resident = try #require(ProcessMemory.residentBytes())
        // A test process runs in more than 1 MiB and less than 64 GiB.
        #expect(resident > 1 << 20 && resident < 1 << 36)
    }
}
