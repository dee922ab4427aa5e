import Foundation
import Logging
import Prometheus
import Synchronization
import Testing

@testable import MicroHTTP

/// A server on a free loopback port with a public folder of its own, shut down at the end.
final class TestServer {
    let server: HTTPServer
    let root: URL
    let openedStreams = Counter()
    let endedStreams = Counter()
    /// Holds `/deferred`'s worker until signalled.
    let deferredGate = DispatchSemaphore(value: 0)
    /// The streams `/held` opened, for a test to send to when it chooses.
    let heldStreams = StreamShelf()
    /// What `/three-endings`' termination actions wrote, in order, and its last stream, weakly.
    let endings = EndingsLog()

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("microhttp-\(UUID().uuidString)")
        let publicFolder = root.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: publicFolder.appendingPathComponent("css"), withIntermediateDirectories: true)
        try "<!doctype html><title>t</title>".write(to: publicFolder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "body{}".write(to: publicFolder.appendingPathComponent("css/site.css"), atomically: true, encoding: .utf8)
        try "secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try "hidden".write(to: publicFolder.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: publicFolder.appendingPathComponent("escape.txt"),
            withDestinationURL: root.appendingPathComponent("secret.txt")
        )

        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.maxBodyBytes = 1024
        configure(&configuration)
        let files = try StaticFiles(root: publicFolder.path)
        var router = Router()
        router.add(.get, "/hello/{name}") { request in .text("hello \(request.parameters["name"] ?? "")") }
        router.add(.get, "/healthz") { _ in .text("ok") }
        router.add(.get, "/whoami") { request in .text(request.clientAddress) }
        router.add(.get, "/flood") { _ in
            // Pushes far more than the queue holds, at once, to a client that is not reading yet.
            .eventStream { stream in
                for index in 0..<10_000 { stream.send(data: String(repeating: "x", count: 100) + "\(index)") }
            }
        }
        let endings = endings
        router.add(.get, "/three-endings") { request in
            .eventStream { stream in
                endings.watch(stream)
                for mark in 1...3 { stream.onTermination { endings.append(mark) } }
                if request.query["close"] == "1" { stream.close() }
            }
        }
        let held = heldStreams
        router.add(.get, "/held") { _ in .eventStream { stream in held.put(stream) } }
        router.add(.post, "/echo") { request in .text(String(decoding: request.body, as: UTF8.self)) }
        let gate = deferredGate
        router.add(.get, "/deferred") { _ in
            // Answered from another thread once the test opens the gate.
            .deferred { respond in
                Thread.detachNewThread {
                    gate.wait()
                    respond(.text("computed elsewhere", status: 201))
                }
            }
        }
        let opened = openedStreams
        let ended = endedStreams
        router.add(.get, "/events") { request in
            .eventStream { stream in
                opened.increment()
                stream.send(data: "first line\nsecond line", event: "greeting", id: "1")
                if request.query["close"] == "1" { stream.close() }
                stream.onTermination { ended.increment() }
            }
        }
        router.setFallback(files.respond(to:))
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        server = HTTPServer(
            configuration: configuration,
            logger: logger,
            metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: metricsRegistry)),
            router: router
        )
        try server.start()
    }

    var port: UInt16 { server.port }

    /// This server's metrics only: its own registry, as a server embedded in a program would have.
    let metricsRegistry = PrometheusCollectorRegistry()

    /// The value of the sample `name` (with its labels, as in `microhttp_requests_total{class="2xx"}`)
    /// in this server's metrics, or `nil` when there is none.
    func metric(_ name: String) -> Double? {
        for line in metricsRegistry.emitToString().split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1))
        }
        return nil
    }

    deinit {
        server.shutdown()
        try? FileManager.default.removeItem(at: root)
    }
}

/// Streams kept for a test, which sends to them from its own thread.
final class StreamShelf: Sendable {
    private let streams = Mutex<[EventStream]>([])
    func put(_ stream: EventStream) { streams.withLock { $0.append(stream) } }
    var first: EventStream? { streams.withLock { $0.first } }
}

/// What termination actions wrote, and the last stream watched (weakly: whether it was freed).
final class EndingsLog: Sendable {
    private struct State {
        var marks: [Int] = []
        weak var stream: EventStream?
    }
    private let state = Mutex(State())
    func append(_ mark: Int) { state.withLock { $0.marks.append(mark) } }
    func watch(_ stream: EventStream) { state.withLock { $0.stream = stream } }
    var marks: [Int] { state.withLock { $0.marks } }
    var stream: EventStream? { state.withLock { $0.stream } }
}

/// A counter shared between a test and the server's threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

@Suite("HTTP server over loopback")
struct ServerTests {
    @Test func routesWithParameters() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "GET", "/hello/world")
        #expect(response.status == 200)
        #expect(response.body == "hello world")
        #expect(response.headers["x-content-type-options"] == "nosniff")
    }

    @Test func healthProbeSeesAHealthyServerAndNotAMissingOne() throws {
        let server = try TestServer()
        #expect(HealthProbe.check(host: "127.0.0.1", port: server.port))
        #expect(HealthProbe.check(host: "0.0.0.0", port: server.port), "a wildcard host is probed over loopback")
        #expect(!HealthProbe.check(host: "127.0.0.1", port: server.port, path: "/no-such-file"))
        server.server.shutdown()
        #expect(!HealthProbe.check(host: "127.0.0.1", port: server.port))
    }

    @Test func unknownPathIsJSON404() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "GET", "/no-such-file")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.body.contains(#""code":"not_found""#))
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "DELETE", "/echo")
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "POST")
        #expect(response.body.contains(#""code":"method_not_allowed""#))
    }

    /// Static files are read-only: `POST /` was once a 404 although `GET /` serves the page.
    @Test(arguments: ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
    func otherMethodsOnStaticFilesAre405WithAllow(method: String) throws {
        let server = try TestServer()
        for path in ["/", "/css/site.css"] {
            let response = try RawHTTPClient.request(server.port, method, path, body: method == "TRACE" ? "" : "x")
            #expect(response.status == 405, "\(method) \(path)")
            #expect(response.headers["allow"] == "GET, HEAD")
            #expect(response.body.contains(#""code":"method_not_allowed""#))
        }
    }

    /// A method that is not a standard one (or not spelled as one) is just another method the
    /// resource does not allow.
    @Test(arguments: ["FOO", "QUERY", "PROPFIND", "get"])
    func unknownMethodsAre405(method: String) throws {
        let server = try TestServer()
        for (path, allowed) in [("/", "GET, HEAD"), ("/echo", "POST"), ("/no-such-file", "GET, HEAD")] {
            let response = try RawHTTPClient.request(server.port, method, path)
            #expect(response.status == 405, "\(method) \(path)")
            #expect(response.headers["allow"] == allowed)
        }
    }

    /// A query that is not valid percent-encoded UTF-8 is refused, not skipped: `?clock=%ff` once
    /// made a real-time session because the bad value was dropped.
    @Test(arguments: ["?clock=%ff", "?a=%zz", "?%c3=1", "?ok=1&bad=%e2%82"])
    func anInvalidQueryIs400(query: String) throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "GET", "/hello/x" + query)
        #expect(response.status == 400)
        #expect(response.body.contains(#""code":"invalid_query""#))
        #expect(try RawHTTPClient.request(server.port, "GET", "/hello/x?clock=virtual").status == 200)
    }

    /// Ambiguous heads are refused and the connection closed, so a body cannot carry a second
    /// request: once `Content-Length: 0` + `Content-Length: 44` ran the body as a request.
    @Test(arguments: [
        ("Content-Length: 5\r\nTransfer-Encoding: chunked", 400, "malformed_request"),
        ("Content-Length: 0\r\nContent-Length: 39", 400, "malformed_request"),
        ("Transfer-Encoding : chunked", 400, "malformed_request"),
        ("X Bad: 1", 400, "malformed_request"),
        ("Transfer-Encoding: gzip", 501, "not_implemented"),
        ("Transfer-Encoding: gzip, chunked", 501, "not_implemented"),
    ])
    func ambiguousHeadsAreRefusedAndTheConnectionClosed(fields: String, status: Int, code: String) throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        let smuggled = "GET /hello/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\n\(fields)\r\n\r\n" + smuggled)
        let answer = client.readToEnd()
        #expect(RawResponse(answer).status == status)
        #expect(answer.contains(#""code":"\#(code)""#))
        #expect(answer.contains("Connection: close"))
        #expect(!answer.contains("hello smuggled"), "nothing after the refused head is served")
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one response")
    }

    @Test func aChunkedBodyAloneIsStillRead() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        let response = RawResponse(client.readToEnd())
        #expect(response.status == 200)
        #expect(response.body == "abc")
    }

    @Test func bodyIsDelivered() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "POST", "/echo", body: "abc")
        #expect(response.status == 200)
        #expect(response.body == "abc")
    }

    @Test func oversizedBodyIs413() throws {
        let server = try TestServer()
        let big = String(repeating: "x", count: 1 << 20)
        let declared = try RawHTTPClient.request(server.port, "POST", "/echo", body: big)
        #expect(declared.status == 413)
        #expect(declared.body.contains(#""code":"payload_too_large""#))

        let client = try RawHTTPClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in 0..<256 { client.send("1000\r\n" + String(repeating: "y", count: 4096) + "\r\n") }  // 1 MiB
        client.send("0\r\n\r\n")
        #expect(RawResponse(client.readToEnd()).status == 413)
    }

    @Test func staticFilesAreServedWithContentType() throws {
        let server = try TestServer()
        let index = try RawHTTPClient.request(server.port, "GET", "/")
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        let css = try RawHTTPClient.request(server.port, "GET", "/css/site.css")
        #expect(css.body == "body{}")
        #expect(css.headers["content-type"] == "text/css; charset=utf-8")
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/..%2fsecret.txt", "/css/..%2f..%2fsecret.txt",
        "/css/%2e%2e/%2e%2e/secret.txt", "/..%5csecret.txt", "/css\\..\\..\\secret.txt", "/%00", "/index.html%00.css",
        "/escape.txt", "/.env", "/%2eenv", "/css/../../secret.txt", "/%252e%252e/secret.txt", "/%", "/%zz",
    ])
    func traversalNeverEscapesRoot(path: String) throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "GET", path)
        #expect([400, 403, 404].contains(response.status), "\(path) answered \(response.status)")
        #expect(!response.body.contains("secret"), "\(path) leaked a file outside the root")
        #expect(!response.body.contains("hidden"), "\(path) served a hidden file")
    }

    @Test func eventStreamFramesMultiLineData() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "GET", "/events?close=1")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        #expect(response.headers["cache-control"] == "no-cache")
        #expect(response.headers["content-length"] == nil)
        #expect(response.body.contains("id: 1\nevent: greeting\ndata: first line\ndata: second line\n\n"))
    }

    /// The least connection memory the server takes (1 KiB, what `microhttp-echo` can run with:
    /// its clients' heads are tiny) still holds a whole event stream with its headers.
    @Test func oneKiBOfConnectionMemoryServesAnEventStream() throws {
        let server = try TestServer { $0.connectionMemoryBytes = 1_024 }
        let response = try RawHTTPClient.request(server.port, "GET", "/events?close=1")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        #expect(response.body.contains("id: 1\nevent: greeting\ndata: first line\ndata: second line\n\n"))
    }

    @Test func aDeferredResponseFreesThePollingThreadUntilItIsReady() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /deferred HTTP/1.1\r\nHost: x\r\n\r\n")
        // The worker waits; meanwhile the polling thread serves others.
        #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
        server.deferredGate.signal()
        let answer = client.read { $0.contains("computed elsewhere") }
        #expect(answer.hasPrefix("HTTP/1.1 201"))
        // The connection is kept alive and serves the next request.
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read { $0.hasSuffix("ok") }.hasSuffix("ok"))
    }

    @Test func shutdownWithADeferredResponsePendingIsClean() throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /deferred HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
        server.server.shutdown()  // libmicrohttpd would abort stopping with the connection suspended
        #expect(client.read { $0.contains("server_busy") }.hasPrefix("HTTP/1.1 503"))
        #expect(client.waitForClose())
        server.deferredGate.signal()  // the late answer finds the connection forgotten: nothing happens
    }

    @Test func headOfEventStreamHasNoSideEffect() throws {
        let server = try TestServer()
        let response = try RawHTTPClient.request(server.port, "HEAD", "/events")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        #expect(server.openedStreams.value == 0)
    }

    @Test func clientDisconnectReleasesTheStream() throws {
        let server = try TestServer { $0.keepAliveInterval = .milliseconds(50) }
        do {
            let client = try RawHTTPClient(port: server.port)
            client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            client.read { $0.contains("second line") }
            #expect(server.server.openEventStreams == 1)
        }
        // The connection watch sees the hang-up of the suspended stream (and the keep-alive write would).
        let deadline = ContinuousClock.now + .seconds(5)
        while server.server.openEventStreams > 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(server.server.openEventStreams == 0)
        #expect(server.endedStreams.value == 1)
    }

    /// With several polling threads, each daemon accepts on the same listening socket and resumes
    /// its own streams.
    @Test(arguments: [1, 3])
    func shutdownEndsOpenStreamsPromptly(pollingThreads: Int) throws {
        let server = try TestServer { $0.pollingThreads = pollingThreads }
        let clients = try (0..<12).map { _ in try RawHTTPClient(port: server.port) }
        for client in clients { client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n") }
        for client in clients { client.read { $0.contains("second line") } }
        #expect(server.server.openEventStreams == 12)
        #expect(try RawHTTPClient.request(server.port, "GET", "/healthz").status == 200)
        let started = ContinuousClock.now
        server.server.shutdown()
        #expect(ContinuousClock.now - started < .seconds(1))
        for client in clients {
            #expect(client.waitForClose())
            #expect(client.read { _ in true }.hasSuffix("0\r\n\r\n"), "the stream ends with its final chunk")
        }
        #expect(server.endedStreams.value == 12)
    }

    @Test func revalidationAnswers304() throws {
        let server = try TestServer()
        let first = try RawHTTPClient.request(server.port, "GET", "/css/site.css")
        let etag = try #require(first.headers["etag"])
        let lastModified = try #require(first.headers["last-modified"])
        #expect(first.headers["cache-control"] == "no-cache")
        let byTag = try RawHTTPClient.request(server.port, "GET", "/css/site.css", headers: ["If-None-Match: \(etag)"])
        #expect(byTag.status == 304)
        #expect(byTag.body.isEmpty)
        let byDate = try RawHTTPClient.request(server.port, "GET", "/css/site.css", headers: ["If-Modified-Since: \(lastModified)"])
        #expect(byDate.status == 304)
        let stale = try RawHTTPClient.request(server.port, "GET", "/css/site.css", headers: [#"If-None-Match: "other""#])
        #expect(stale.status == 200 && stale.body == "body{}")
    }

    @Test func changedFileIsServedAfresh() throws {
        let server = try TestServer()
        let path = server.root.appendingPathComponent("Public/css/site.css")
        _ = try RawHTTPClient.request(server.port, "GET", "/css/site.css")
        try "body{color:red}".write(to: path, atomically: true, encoding: .utf8)
        #expect(try RawHTTPClient.request(server.port, "GET", "/css/site.css").body == "body{color:red}")
    }

    @Test func connectionCapAnswers503() throws {
        let server = try TestServer { $0.maxConnections = 1 }
        let holder = try RawHTTPClient(port: server.port)
        holder.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        holder.read { $0.contains("second line") }
        let refused = try RawHTTPClient.request(server.port, "GET", "/hello/x")
        #expect(refused.status == 503)
        #expect(refused.body.contains(#""code":"server_busy""#))
        #expect(refused.headers["retry-after"] != nil)
    }

    @Test func perClientCapAnswers429AndTrustedProxyAddressesCount() throws {
        let server = try TestServer {
            $0.maxConnectionsPerClient = 1
            $0.trustProxy = true
        }
        let holder = try RawHTTPClient(port: server.port)
        holder.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        holder.read { $0.contains("second line") }
        let sameClient = try RawHTTPClient.request(server.port, "GET", "/hello/x")
        #expect(sameClient.status == 429)
        let forwarded = try RawHTTPClient.request(server.port, "GET", "/whoami", headers: ["X-Forwarded-For: 203.0.113.7"])
        #expect(forwarded.status == 200 && forwarded.body == "203.0.113.7", "another client behind the proxy")
        // An appending proxy passes what the client wrote before the address it saw: only the
        // last element is the proxy's.
        let spoofed = try RawHTTPClient.request(server.port, "GET", "/whoami", headers: ["X-Forwarded-For: 198.51.100.9, 203.0.113.8"])
        #expect(spoofed.status == 200 && spoofed.body == "203.0.113.8", "the address the proxy added, not the client's claim")
        let twoFields = try RawHTTPClient.request(
            server.port,
            "GET",
            "/whoami",
            headers: ["X-Forwarded-For: 198.51.100.9", "X-Forwarded-For: 203.0.113.9"]
        )
        #expect(twoFields.status == 200 && twoFields.body == "203.0.113.9", "the last field's last element")
        let bogus = try RawHTTPClient.request(server.port, "GET", "/whoami", headers: ["X-Forwarded-For: not-an-address"])
        #expect(bogus.status == 429, "an invalid forwarded address falls back to the socket's")
    }

    @Test func slowClientIsDisconnectedWhenItsQueueOverflows() throws {
        let server = try TestServer { $0.eventStreamQueueLimit = 64 * 1024 }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.waitForClose(), "the stream is closed rather than buffered without bound")
        #expect(server.metric("microhttp_sse_slow_clients_closed_total") == 1)
        #expect((server.metric("microhttp_sse_frames_dropped_total") ?? 0) >= 1)
    }

    @Test func eachServerRecordsItsOwnMetricsThroughTheFactoryItIsGiven() throws {
        let first = try TestServer()
        let second = try TestServer()
        for _ in 0..<3 { #expect(try RawHTTPClient.request(first.port, "GET", "/healthz").status == 200) }
        #expect(try RawHTTPClient.request(second.port, "GET", "/nowhere").status == 404)
        // A request is counted when libmicrohttpd reports it complete, just after its client has
        // the response.
        let deadline = ContinuousClock.now + .seconds(5)
        while first.metric(#"microhttp_requests_total{class="2xx"}"#) != 3 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        while second.metric(#"microhttp_requests_total{class="4xx"}"#) != 1 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(first.metric(#"microhttp_requests_total{class="2xx"}"#) == 3)
        #expect(first.metric(#"microhttp_requests_total{class="4xx"}"#) == 0)
        #expect(second.metric(#"microhttp_requests_total{class="4xx"}"#) == 1)
        #expect(second.metric(#"microhttp_requests_total{class="2xx"}"#) == 0)
        // Request latency, as a histogram: one observation per response.
        #expect(first.metric("microhttp_request_duration_seconds_count") == 3)
        #expect(second.metric("microhttp_request_duration_seconds_count") == 1)
        #expect(first.metric(#"microhttp_request_duration_seconds_bucket{le="+Inf"}"#) == 3)
    }

    @Test func vanishedClientsLeaveTheStreamGaugeAtZero() throws {
        let server = try TestServer { $0.keepAliveInterval = .milliseconds(30) }
        do {
            let clients = try (0..<5).map { _ in try RawHTTPClient(port: server.port) }
            for client in clients {
                client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                client.read { $0.contains("second line") }
            }
            #expect(server.metric("microhttp_open_sse_streams") == 5)
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while server.metric("microhttp_open_sse_streams") != 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(server.metric("microhttp_open_sse_streams") == 0)
    }
}
