import Foundation
import Testing

@testable import MicroHTTP

/// How much connection memory an event-stream head needs (`StreamHeadSizing`), from the bytes alone.
@Suite("Event-stream heads, sized")
struct StreamHeadSizingTests {
    static let reply = 400

    func needed(_ head: String) -> Int? {
        Array(head.utf8).withUnsafeBytes { StreamHeadSizing.memoryNeeded(forHead: $0, replyHeadBytes: Self.reply) }
    }

    @Test func aCompleteEventStreamGetIsSized() {
        let head = "GET /e HTTP/1.1\r\nHost: a\r\nAccept: text/event-stream\r\n\r\n"  // 54 bytes: 64 in the pool
        // Records: two fields and the `Connection: close` the server adds.
        #expect(needed(head) == 64 + 3 * 64 + Self.reply)
        #expect(needed(head.replacingOccurrences(of: "Accept: text/event-stream", with: "aCCEPT: Text/Event-Stream")) == 64 + 3 * 64 + Self.reply)
    }

    @Test func queryArgumentsAndCookiesTakeRecordsToo() {
        let plain = needed("GET /e HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n") ?? 0
        let withQuery = needed("GET /e?a=1&b=2 HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n") ?? 0
        #expect(withQuery == plain + 16 + 2 * 64)  // 8 bytes more head: one 16-byte step
        let withCookies = needed("GET /e HTTP/1.1\r\nAccept: text/event-stream\r\nCookie: a=1; b=2\r\n\r\n") ?? 0
        #expect(withCookies == plain + 16 + 3 * 64)  // the field, its two cookies, 19 bytes more head
    }

    @Test func eitherHalfBoundsTheMemoryToo() {
        let longPath = "GET /" + String(repeating: "p", count: 600) + " HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n"
        #expect(needed(longPath) == 2 * 656, "the head must fit the first read buffer, half the memory")
        let manyFields = "GET /e HTTP/1.1\r\nAccept: text/event-stream\r\n" + String(repeating: "A: 1\r\n", count: 30) + "\r\n"
        #expect(needed(manyFields) == 2 * 32 * 64, "the records must fit the other half")
    }

    @Test(arguments: [
        "POST /e HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n",
        "GET /e HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n",
        "GET /e HTTP/1.1\r\nAccept: text/html\r\n\r\n",
        "GET /e HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /e HTTP/1.1\r\nAccept: text/event-stream\r\nContent-Length: 0\r\n\r\n",
        "GET /e HTTP/1.1\r\nAccept: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET /e HTTP/1.1\r\nAccept: text/event-stream\r\n",
        "GET /e HTTP/1.1\r\nAccept: text/event-stream\r\n folded\r\n\r\n",
        "GET /e HTTP/1.1\r\n: text/event-stream\r\n\r\n",
        "GET  /e HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n",
        "",
    ])
    func anythingElseIsNotSized(head: String) {
        #expect(needed(head) == nil)
    }
}

/// The sorter in a running server: which daemon a connection reaches, and that every reply a
/// head the small memories take can get is sent whole.
@Suite("Connections sorted by their first request")
struct ConnectionSorterTests {
    static let streamRequest = "GET /events?close=1 HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"

    @Test func anEventStreamRequestGetsTheSmallMemoryAndOneReply() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send(Self.streamRequest)
        let response = RawResponse(client.readToEnd())
        #expect(response.status == 200)
        #expect(response.headers["connection"] == "close")
        #expect(response.body.contains("data: first line\ndata: second line\n\n"))
        #expect(server.metric("microhttp_compact_stream_connections_total") == 1)
    }

    @Test func otherRequestsKeepTheirConnectionAlive() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let first = client.read { $0.hasSuffix("ok") }
        client.send("GET /hello/again HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let both = client.read { $0.hasSuffix("hello again") }
        #expect(!first.lowercased().contains("connection: close"))
        #expect(both.hasSuffix("hello again"), "the same connection answers a second request")
        #expect(server.metric("microhttp_compact_stream_connections_total") ?? 0 == 0)
    }

    @Test func aStreamWithAHeadTooBigForTheSmallMemoriesGetsTheRegularOne() throws {
        let server = try TestServer()
        let padding = "X-Padding: " + String(repeating: "p", count: 6_000)
        let response = try RawHTTPClient.request(server.port, "GET", "/events?close=1", headers: ["Accept: text/event-stream", padding])
        #expect(response.status == 200)
        #expect(response.body.contains("data: first line"))
        #expect(server.metric("microhttp_compact_stream_connections_total") ?? 0 == 0)
    }

    /// For each small memory, the biggest heads it takes (one long field, or many short ones) get
    /// whole replies of every kind the server sends: a stream, a JSON error, a static file, a
    /// route's text — under default headers as long as the playground's.
    @Test(arguments: [1_024, 3_072])
    func headsAtTheLimitOfASmallMemoryGetWholeReplies(memory: Int) throws {
        let policy =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        let defaults = [
            ("X-Content-Type-Options", "nosniff"), ("Content-Security-Policy", policy), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
        ]
        let server = try TestServer {
            $0.eventStreamConnectionMemory = [memory]
            $0.defaultHeaders = defaults
        }
        let replyHead = StreamHeadSizing.replyHeadBytes(defaultHeaders: defaults)
        let cases: [(path: String, status: Int, body: String)] = [
            ("/events?close=1", 200, "data: second line\n\n"), ("/missing", 404, "\"not_found\""),
            ("/css/site.css", 200, "body{}"), ("/hello/world", 200, "hello world"),
        ]
        var sent = 0
        for (path, status, body) in cases {
            for shape in ["long", "many"] {
                let head = largestHead(path: path, shape: shape, fitting: memory, replyHead: replyHead)
                let client = try RawHTTPClient(port: server.port)
                client.send(head)
                let response = RawResponse(client.readToEnd())
                sent += 1
                #expect(server.metric("microhttp_compact_stream_connections_total") == Double(sent), "\(path) \(shape)")
                #expect(response.status == status, "\(path) \(shape): \(head.utf8.count) bytes")
                #expect(response.body.contains(body), "\(path) \(shape)")
            }
        }
    }

    /// The longest head of `shape` for `path` that `memory` still takes.
    private func largestHead(path: String, shape: String, fitting memory: Int, replyHead: Int) -> String {
        func head(_ size: Int) -> String {
            let fields =
                shape == "long" ? "X-Padding: " + String(repeating: "p", count: size) + "\r\n" : String(repeating: "X: 1\r\n", count: size)
            return "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n" + fields + "\r\n"
        }
        func needed(_ size: Int) -> Int? {
            Array(head(size).utf8).withUnsafeBytes { StreamHeadSizing.memoryNeeded(forHead: $0, replyHeadBytes: replyHead) }
        }
        var size = 0
        while let next = needed(size + 1), next <= memory { size += 1 }
        #expect(needed(size).map { $0 <= memory } == true, "even the smallest head of this shape fits")
        return head(size)
    }

    @Test func aClientThatWaitsBeforeItsRequestIsSortedWhenItSends() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        // The scenario under test: the sorter has accepted the connection and found nothing to
        // read, so it waits in its epoll set (any delay shorter than its one-second wait).
        usleep(100_000)
        client.send(Self.streamRequest)
        let response = RawResponse(client.readToEnd())
        #expect(response.status == 200)
        #expect(response.headers["connection"] == "close")
        #expect(server.metric("microhttp_compact_stream_connections_total") == 1)
    }

    /// A head the sorter's peek finds incomplete goes to the regular memory at once; had the
    /// sorter's thread been slower than the client, it found the whole head. Either way the
    /// stream is served, and the reply says which memory holds it.
    @Test func aHeadThatArrivesInPiecesIsServedWhereverItGoes() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /events?close=1 HTTP/1.1\r\n")
        usleep(100_000)  // the scenario: most often the sorter peeks at a head not all there
        client.send("Host: localhost\r\nAccept: text/event-stream\r\n\r\n")
        let response = RawResponse(client.read { $0.contains("second line\n\n") })
        #expect(response.status == 200)
        let compact = server.metric("microhttp_compact_stream_connections_total") ?? 0
        #expect(compact == (response.headers["connection"] == "close" ? 1 : 0))
    }

    @Test func withoutSmallMemoriesTheDaemonsListenThemselves() throws {
        let server = try TestServer { $0.eventStreamConnectionMemory = [] }
        let client = try RawHTTPClient(port: server.port)
        client.send(Self.streamRequest)
        let response = RawResponse(client.read { $0.contains("second line\n\n") })
        #expect(response.status == 200)
        #expect(response.headers["connection"] == nil)
        #expect(server.metric("microhttp_compact_stream_connections_total") ?? 0 == 0)
    }

    @Test func shutdownClosesConnectionsStillWaitingToBeSorted() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        usleep(50_000)  // the scenario: accepted, nothing sent yet
        server.server.shutdown()
        // Closed by the sorter, or reset with the listening socket if it had not accepted yet.
        #expect(client.waitForEnd())
    }
}
