import Foundation
import Testing

@testable import MicroHTTP

/// What an event stream holds while it is idle, and what it lets go of when it ends.
@Suite("Event streams' ends")
struct StreamEndTests {
    /// Termination actions run once each, in the order registered — the first kept inline, the
    /// others in an array — and one registered after the end runs at once.
    @Test func terminationActionsRunOnceInOrder() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /three-endings?close=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read { $0.hasSuffix("\r\n0\r\n\r\n") }.hasSuffix("\r\n0\r\n\r\n"), "the final chunk")
        try waitUntil { server.endings.marks.count >= 3 }
        #expect(server.endings.marks == [1, 2, 3])
        #expect(server.server.openEventStreams == 0)
    }

    /// A stream that ended is freed although its connection stays open for the next request: the
    /// connection's record, which held the stream for hang-ups, lets it go.
    @Test func anEndedStreamIsFreedWhileItsConnectionStaysOpen() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /three-endings?close=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read { $0.hasSuffix("\r\n0\r\n\r\n") }
        try waitUntil { server.endings.stream == nil }
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read { $0.hasSuffix("ok") }.hasSuffix("ok"), "the same connection serves the next request")
    }

    /// An idle stream keeps no queue buffer: the frames were copied out, and the next one makes
    /// its own.
    @Test func anIdleStreamHoldsNoQueueBuffer() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = client.read { $0.contains("retry: 2000\n\n") }
        let stream = try #require(server.heldStreams.first)
        for round in 0..<3 {
            stream.send(data: String(repeating: "x", count: 500), id: "\(round)")
            _ = client.read { $0.contains("id: \(round)\n") }
            try waitUntil { stream.isIdle }
            #expect(stream.queueCapacity == 0, "round \(round)")
        }
        stream.close()
    }

    /// `broadcast` reaches every open stream, whichever route opened it, and no stream that
    /// ended.
    @Test func broadcastReachesEveryOpenStreamAndNoEndedOne() throws {
        let server = try TestServer()
        let held = try RawHTTPClient(port: server.port)
        held.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = held.read { $0.contains("retry: 2000\n\n") }
        let events = try RawHTTPClient(port: server.port)
        events.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = events.read { $0.contains("second line") }
        let ended = try RawHTTPClient(port: server.port)
        ended.send("GET /events?close=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = ended.read { $0.hasSuffix("\r\n0\r\n\r\n") }
        try waitUntil { server.server.openEventStreams == 2 }
        #expect(server.server.broadcast(ServerSentEvent(data: "to all", id: "b")) == 2)
        for client in [held, events] {
            #expect(client.read { $0.contains("id: b\ndata: to all\n\n") }.contains("id: b\ndata: to all\n\n"))
        }
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Timeout() }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    private struct Timeout: Error {}
}
