import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging

/// An HTTP/1.1 server on GNU libmicrohttpd.
///
/// Each polling thread (see ``ServerConfiguration/pollingThreads``) runs one libmicrohttpd daemon
/// with epoll (not a thread per connection) and calls the handler there, so handlers must not
/// block. Event streams are suspended while they have nothing to send, so thousands of idle
/// streams cost no CPU.
///
/// Lifecycle: ``start()`` binds and starts serving; ``shutdown()`` stops accepting, ends every event
/// stream (waiting at most ``ServerConfiguration/drainTimeout`` for their final chunks), and stops
/// the daemons. Both may be called from any thread but a handler's.
public final class HTTPServer: Sendable {
    private let core: ServerCore

    /// Checks a request's head before its body is read, and may note in it what `handler` will need.
    public typealias HeadCheck = @Sendable (inout HTTPRequest) -> HTTPResponse?

    /// Creates a server that answers every request with `handler`; `preflight`, if given, checks
    /// each request's head before its body is read (see ``Router/preflight(resolving:)``).
    public init(
        configuration: ServerConfiguration = ServerConfiguration(),
        logger: Logger = Logger(label: "microhttp"),
        metrics: ServerMetrics = ServerMetrics(),
        preflight: HeadCheck? = nil,
        handler: @escaping Router.Handler
    ) {
        core = ServerCore(configuration: configuration, logger: logger, metrics: metrics, preflight: preflight, handler: handler)
    }

    /// Creates a server that answers with `router`, checking each request's route before its body.
    public convenience init(
        configuration: ServerConfiguration = ServerConfiguration(),
        logger: Logger = Logger(label: "microhttp"),
        metrics: ServerMetrics = ServerMetrics(),
        router: Router
    ) {
        self.init(
            configuration: configuration,
            logger: logger,
            metrics: metrics,
            preflight: { request in router.preflight(resolving: &request) },
            handler: router.respond(to:)
        )
    }

    /// Binds the address and starts serving.
    public func start() throws { try core.start() }

    /// The bound port (useful after configuring port 0); 0 before ``start()``.
    public var port: UInt16 { core.boundPort }

    /// The number of event streams currently open.
    public var openEventStreams: Int { core.openEventStreams }

    /// The server's counters and gauges (serve them at `/metrics`).
    public var metrics: ServerMetrics { core.metrics }

    /// Stops accepting, ends the event streams, and stops the daemon. Idempotent. Not from a
    /// handler: it waits for the polling threads.
    public func shutdown() { core.shutdown() }
}

/// Why the server could not start.
public enum HTTPServerError: Error, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 address literal.
    case invalidHost(String)
    /// libmicrohttpd could not start (most often: the port is in use).
    case startFailed(host: String, port: UInt16)

    /// A description for people and logs.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            "invalid host '\(host)': give an IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0 or ::1"
        case .startFailed(let host, let port):
            "could not listen on \(host):\(port) (is the port already in use?)"
        }
    }
}

/// The part of the server that libmicrohttpd's callbacks reach (through an unretained pointer that
/// stays valid because the core retains itself while the daemon runs).
final class ServerCore: Sendable {
    private struct State {
        /// One per polling thread, each with its daemon; empty before start and after shutdown.
        var loops: [PollingLoop] = []
        var port: UInt16 = 0
        var streams: [ObjectIdentifier: EventStream] = [:]
        /// Responses being computed elsewhere, their connections suspended.
        var deferred: [ObjectIdentifier: DeferredResponse] = [:]
        var isStopping = false
        var selfRetain: Unmanaged<ServerCore>?
        var inFlightPerClient: [String: Int] = [:]
    }

    let configuration: ServerConfiguration
    let logger: Logger
    let metrics: ServerMetrics
    private let handler: Router.Handler
    private let preflight: HTTPServer.HeadCheck?
    private let state = Lock(State())
    private let keepAliveQueue = DispatchQueue(label: "microhttp.keep-alive")
    /// Request deadlines, stream hang-ups and memory return (see ``ConnectionWatch``).
    private let watch: ConnectionWatch
    /// How far past the body limit a chunked upload is read (and discarded) to answer it with 413.
    static let discardAllowance = 4 * 1024 * 1024

    init(
        configuration: ServerConfiguration,
        logger: Logger,
        metrics: ServerMetrics,
        preflight: HTTPServer.HeadCheck?,
        handler: @escaping Router.Handler
    ) {
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.preflight = preflight
        self.handler = handler
        watch = ConnectionWatch(
            requestTimeout: configuration.requestTimeout,
            trimThresholdBytes: configuration.heapTrimThresholdBytes,
            metrics: metrics
        )
    }

    var boundPort: UInt16 { state.withLock { $0.port } }
    var openEventStreams: Int { state.withLock { $0.streams.count } }

    func start() throws {
        raiseOpenFileLimit()
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let retained = Unmanaged.passRetained(self)
        // One daemon per polling thread; the first binds the address, the others accept on a
        // duplicate of its listening socket.
        var loops: [PollingLoop] = []
        for _ in 0..<max(1, configuration.pollingThreads) {
            let daemon: OpaquePointer?
            if let first = loops.first {
                let listener = dup(rp_daemon_listen_fd(first.daemon.pointer))
                // Not closed if the start fails: some of libmicrohttpd's failure paths close it.
                daemon = listener < 0 ? nil : startDaemon(listeningOn: listener, retained)
            } else {
                daemon = startDaemon(at: address, retained)
            }
            guard let daemon, let loop = PollingLoop(daemon: daemon) else {
                if let daemon { MHD_stop_daemon(daemon) }
                for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
                retained.release()
                watch.stop()
                throw HTTPServerError.startFailed(host: configuration.host, port: configuration.port)
            }
            loops.append(loop)
        }
        let port = rp_daemon_bound_port(loops[0].daemon.pointer)
        state.withLock { state in
            state.loops = loops
            state.port = port
            state.selfRetain = retained
        }
        for (index, loop) in loops.enumerated() { loop.start(name: "microhttp.poll-\(index)") }
        scheduleKeepAlive()
        logger.info("listening", metadata: ["host": "\(configuration.host)", "port": "\(port)"])
    }

    /// Starts a daemon that binds `address`.
    private func startDaemon(at address: SocketAddress, _ retained: Unmanaged<ServerCore>) -> OpaquePointer? {
        address.withSockaddr { sockaddr in
            startDaemon(
                listenOption: rp_option_pointer(.SOCK_ADDR, UnsafeMutableRawPointer(mutating: sockaddr)),
                isIPv6: address.isIPv6,
                retained
            )
        }
    }

    /// Starts a daemon that accepts on `socket`, a listening socket it then owns.
    private func startDaemon(listeningOn socket: Int32, _ retained: Unmanaged<ServerCore>) -> OpaquePointer? {
        startDaemon(listenOption: rp_option_int(.LISTEN_SOCKET, Int(socket)), isIPv6: false, retained)
    }

    /// Starts a daemon for ``PollingLoop`` (epoll, no thread of its own) with the server's options.
    private func startDaemon(listenOption: MHD_OptionItem, isIPv6: Bool, _ retained: Unmanaged<ServerCore>) -> OpaquePointer? {
        var flags =
            MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            rp_option_logger(retained.toOpaque()),  // first, or earlier options log to stderr
            listenOption,
            // A little above the application's cap, so that the cap answers 503 instead of
            // libmicrohttpd silently dropping sockets.
            rp_option_int(.CONNECTION_LIMIT, max(1, configuration.maxConnections + 64)),
            rp_option_int(.CONNECTION_TIMEOUT, max(1, configuration.connectionTimeoutSeconds)),
            rp_option_int(.CONNECTION_MEMORY_LIMIT, max(4_096, configuration.connectionMemoryBytes)),
            rp_option_int(.PER_IP_CONNECTION_LIMIT, perClientSocketLimit),
            rp_option_notify_completed(requestCompletedCallback, retained.toOpaque()),
            rp_option_notify_connection(connectionNotifyCallback, retained.toOpaque()),
            rp_option_unescape(keepEscapesCallback, nil),
            rp_option_end(),
        ]
        return options.withUnsafeMutableBufferPointer { buffer in
            rp_start_daemon(flags, configuration.port, accessHandlerCallback, retained.toOpaque(), buffer.baseAddress)
        }
    }

    func shutdown() {
        let taken = state.withLock { state -> ([PollingLoop], [EventStream])? in
            guard !state.loops.isEmpty, !state.isStopping else { return nil }
            state.isStopping = true
            return (state.loops, Array(state.streams.values))
        }
        guard let (loops, streams) = taken else { return }
        let listenSockets = loops.map { $0.quiesce() }
        for stream in streams { stream.close() }
        // libmicrohttpd will not stop with a connection suspended: answer the pending ones now.
        let pendingAnswers = state.withLock { Array($0.deferred.values) }
        for pending in pendingAnswers { pending.complete(with: Self.shuttingDown) }
        let deadline = ContinuousClock.now + configuration.drainTimeout
        while (openEventStreams > 0 || state.withLock({ !$0.deferred.isEmpty })) && ContinuousClock.now < deadline {
            usleep(2_000)  // shutdown only: waiting for the polling threads to flush final chunks and 503s
        }
        let unfinished = openEventStreams
        for loop in loops { loop.stop() }
        for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
        watch.stop()
        for socket in listenSockets where socket >= 0 { close(socket) }
        let retained = state.withLock { state -> Unmanaged<ServerCore>? in
            state.loops = []
            defer { state.selfRetain = nil }
            return state.selfRetain
        }
        logger.info("stopped", metadata: ["streams": "\(streams.count)", "unfinished": "\(unfinished)"])
        retained?.release()
    }

    /// libmicrohttpd's per-address socket limit: the per-client cap plus an allowance, unless the
    /// clients' addresses come from a proxy (0: none).
    private var perClientSocketLimit: Int {
        guard let limit = configuration.maxConnectionsPerClient, !configuration.trustProxy else { return 0 }
        return limit + ServerConfiguration.perClientConnectionAllowance
    }

    // MARK: Requests (polling thread)

    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = requestState.pointee else {
            let query = query(of: connection)
            var head = HTTPRequest(
                method: HTTPMethod(rawValue: String(cString: method)),
                rawPath: String(cString: url),
                query: query ?? [:],
                headerFields: headerFields(of: connection),
                clientAddress: effectiveClientAddress(of: connection)
            )
            let refusal =
                StrictHTTP.refusal(of: head.headerFields)
                ?? (query == nil ? Self.invalidQuery : preflight?(&head))
            let context = RequestContext(head: head)
            requestState.pointee = Unmanaged.passRetained(context).toOpaque()
            if let busy = admit(context) {
                metrics.refusedBusy.increment()
                return respond(busy, to: context, on: connection)
            }
            if let refusal {
                return respond(refusal, to: context, on: connection)
            }
            if rp_connection_head_size(connection) > configuration.maxRequestHeadBytes {
                metrics.headsTooLarge.increment()
                return respond(
                    .error(
                        status: 431,
                        code: "headers_too_large",
                        message: "The request head is larger than \(configuration.maxRequestHeadBytes) bytes."
                    ),
                    to: context,
                    on: connection
                )
            }
            if let length = head.header("Content-Length").flatMap(Int.init), length > configuration.maxBodyBytes {
                return respond(tooLarge(), to: context, on: connection)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if context.responded { return .YES }
            // libmicrohttpd 0.9.x cannot queue a response in the middle of a body, so an oversized
            // chunked body is discarded as it arrives (never buffered) and answered 413 at its end;
            // a client that keeps sending far past the limit is disconnected instead.
            if context.discardedBytes > 0 || context.body.count + size > configuration.maxBodyBytes {
                context.discardedBytes += context.body.count + size
                context.body = []
                return context.discardedBytes > configuration.maxBodyBytes + Self.discardAllowance ? .NO : .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                    context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
            return .YES
        }
        if context.responded { return .YES }
        if let deferred = context.deferred {
            // Called again after the resume: the response computed elsewhere is ready. It stays
            // pending (for shutdown's wait) until the request completes.
            let response =
                deferred.takeResponse()
                ?? .error(status: 500, code: "internal_error", message: "The response was never computed.")
            return respond(response, to: context, on: connection)
        }
        if context.discardedBytes > 0 { return respond(tooLarge(), to: context, on: connection) }
        var request = context.head
        request.body = context.body
        context.body = []
        let response = handler(request)
        if case .deferred(let start) = response.body { return deferResponse(start, context: context, on: connection) }
        return respond(response, to: context, on: connection)
    }

    private static let shuttingDown = HTTPResponse.error(status: 503, code: "server_busy", message: "The server is shutting down.")

    /// Suspends the connection while `start`'s worker computes the response; its completion
    /// resumes the connection, and libmicrohttpd calls the handler again to queue it.
    private func deferResponse(
        _ start: @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void,
        context: RequestContext,
        on connection: OpaquePointer
    ) -> MHD_Result {
        let daemon = rp_connection_daemon(connection)
        guard let loop = state.withLock({ state in state.loops.first { $0.daemon.pointer == daemon } }) else {
            return respond(Self.shuttingDown, to: context, on: connection)
        }
        let deferred = DeferredResponse(connection: connection, loop: loop)
        let registered = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.deferred[ObjectIdentifier(deferred)] = deferred
            return true
        }
        guard registered else { return respond(Self.shuttingDown, to: context, on: connection) }
        if let record = Self.record(of: connection) { watch.answering(record) }  // the request is in: no deadline
        context.deferred = deferred
        MHD_suspend_connection(connection)
        start { response in deferred.complete(with: response) }
        return .YES
    }

    /// Applies the connection caps: 503 `server_busy` beyond ``ServerConfiguration/maxConnections``,
    /// 429 beyond ``ServerConfiguration/maxConnectionsPerClient``. Counts the request in progress.
    private func admit(_ context: RequestContext) -> HTTPResponse? {
        if metrics.connectionCount > configuration.maxConnections {
            return HTTPResponse.error(
                status: 503,
                code: "server_busy",
                message: "The server has as many connections as it accepts; try again shortly.",
                retryAfterSeconds: 5
            )
        }
        guard let limit = configuration.maxConnectionsPerClient else { return nil }
        let client = context.head.clientAddress
        let admitted = state.withLock { state -> Bool in
            guard state.inFlightPerClient[client, default: 0] < limit else { return false }
            state.inFlightPerClient[client, default: 0] += 1
            return true
        }
        guard admitted else {
            return HTTPResponse.error(
                status: 429,
                code: "rate_limited",
                message: "Too many connections from your address; close some and retry.",
                retryAfterSeconds: 5
            )
        }
        context.isCountedForClient = true
        return nil
    }

    /// A connection opened: counted, given its request deadline and TCP liveness options; its
    /// record becomes the connection's socket context.
    func connectionOpened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        metrics.connectionOpened()
        let peer = rp_connection_client_address(connection).map(SocketAddress.describe) ?? ""
        let record = watch.opened(socket: rp_connection_fd(connection), peer: peer)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
    }

    /// libmicrohttpd is about to close the connection's socket.
    func connectionClosed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        metrics.connectionClosed()
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        watch.closed(Unmanaged<ConnectionWatch.Record>.fromOpaque(pointer).takeRetainedValue())
    }

    /// The connection's record (valid while the connection is open).
    private static func record(of connection: OpaquePointer) -> ConnectionWatch.Record? {
        rp_connection_socket_context(connection).map { Unmanaged<ConnectionWatch.Record>.fromOpaque($0).takeUnretainedValue() }
    }

    /// A message from libmicrohttpd itself (see `microhttpdLogCallback`).
    func logLibraryMessage(_ message: String) {
        logger.debug("libmicrohttpd: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// The request on `connection` is over: the connection waits for its next request.
    func requestEnded(on connection: OpaquePointer) {
        if let record = Self.record(of: connection) { watch.waitingForRequest(record) }
    }

    func completed(_ context: RequestContext) {
        if let deferred = context.deferred {
            deferred.forget()
            _ = state.withLock { $0.deferred.removeValue(forKey: ObjectIdentifier(deferred)) }
        }
        metrics.responded(status: context.status)
        if context.isCountedForClient {
            let client = context.head.clientAddress
            state.withLock { state in
                state.inFlightPerClient[client, default: 1] -= 1
                if state.inFlightPerClient[client] == 0 { state.inFlightPerClient[client] = nil }
            }
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - context.started.uptimeNanoseconds) / 1e6
        logger.info(
            "\(context.head.method) \(context.head.rawPath) \(context.status)",
            metadata: [
                "bytes": "\(context.bytesSent)",
                "ms": "\((milliseconds * 10).rounded() / 10)",
            ]
        )
    }

    private func tooLarge() -> HTTPResponse {
        .error(
            status: 413,
            code: "payload_too_large",
            message: "The request body is larger than \(configuration.maxBodyBytes) bytes."
        )
    }

    private func respond(_ response: HTTPResponse, to context: RequestContext, on connection: OpaquePointer) -> MHD_Result {
        context.responded = true
        if let record = Self.record(of: connection) { watch.answering(record) }
        context.status = response.status
        switch response.body {
        case .bytes, .prepared:
            metrics.answered(afterNanoseconds: DispatchTime.now().uptimeNanoseconds - context.started.uptimeNanoseconds)
        case .deferred, .eventStream:
            break  // the real response is recorded; a stream's time is how long its client watches
        }
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            context.bytesSent = bytes.count
            metrics.bytesSent.increment(by: bytes.count)
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count,
                    UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                    .RESPMEM_MUST_COPY
                )
            }
        case .prepared(let prepared):
            context.bytesSent = prepared.body.count
            metrics.bytesSent.increment(by: prepared.body.count)
            // Built once with every header, then queued again and again: libmicrohttpd counts
            // its references, so no copy is made per request.
            let handle = prepared.handle(defaultHeaders: configuration.defaultHeaders)
            return MHD_queue_response(connection, UInt32(response.status), handle.pointer)
        case .deferred:
            // A deferred response must complete with a real one.
            return respond(
                .error(status: 500, code: "internal_error", message: "The response was never computed."),
                to: context,
                on: connection
            )
        case .eventStream(let open):
            if context.head.method == .head {
                mhdResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            } else if let stream = openEventStream(on: connection) {
                stream.sendRetry(milliseconds: 2_000)
                open(stream)
                mhdResponse = MHD_create_response_from_callback(
                    rp_size_unknown(),
                    1_024,
                    eventStreamReadCallback,
                    Unmanaged.passRetained(stream).toOpaque(),
                    eventStreamFreeCallback
                )
            } else {
                return respond(
                    .error(status: 503, code: "server_busy", message: "The server is shutting down."),
                    to: context,
                    on: connection
                )
            }
        }
        guard let mhdResponse else { return .NO }
        // A 431's head left little of the connection's memory: without the default headers the
        // answer still fits where with them libmicrohttpd would close the connection unanswered.
        let defaultHeaders = response.status == 431 ? [] : configuration.defaultHeaders
        for (name, value) in defaultHeaders + response.headers {
            MHD_add_response_header(mhdResponse, name, value)
        }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        context.releaseHead()
        return result
    }

    // MARK: Event streams

    private func openEventStream(on connection: OpaquePointer) -> EventStream? {
        let daemon = rp_connection_daemon(connection)
        guard let loop = state.withLock({ state in state.loops.first { $0.daemon.pointer == daemon } }) else { return nil }
        let stream = EventStream(
            connection: connection,
            loop: loop,
            queueLimit: configuration.eventStreamQueueLimit,
            lastEventID: header("Last-Event-ID", of: connection),
            metrics: metrics
        )
        let registered = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        guard registered else { return nil }
        metrics.eventStreamOpened()
        if let record = Self.record(of: connection) { watch.watchHangUp(of: record, for: stream) }
        stream.onTermination { [weak self, weak stream] in
            guard let self, let stream else { return }
            _ = self.state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
            self.metrics.eventStreamClosed()
        }
        return stream
    }

    /// Every `keepAliveInterval`, a comment to every open stream: it keeps proxies from timing out,
    /// and writing is how a suspended stream finds out that its client has gone.
    private func scheduleKeepAlive() {
        keepAliveQueue.asyncAfter(deadline: .now() + configuration.keepAliveInterval.seconds) { [weak self] in
            guard let self else { return }
            let streams = self.state.withLock { $0.isStopping ? nil : Array($0.streams.values) }
            guard let streams else { return }
            for stream in streams { stream.sendComment("keep-alive") }
            self.scheduleKeepAlive()
        }
    }

    // MARK: Request head

    private func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private func headerFields(of connection: OpaquePointer) -> [(name: String, value: String)] {
        pairs(of: connection, kind: .HEADER_KIND).map { (name: $0.0, value: $0.1) }
    }

    /// The query's parameters, decoded; `nil` when any name or value is not valid percent-encoded
    /// UTF-8 (answered 400: skipping it would quietly change the request's meaning, as
    /// `?clock=%ff` once made a real-time session).
    private func query(of connection: OpaquePointer) -> [String: String]? {
        var query: [String: String] = [:]
        for (name, value) in pairs(of: connection, kind: .GET_ARGUMENT_KIND) {
            guard let key = PathDecoding.decodeQueryComponent(name),
                let decoded = PathDecoding.decodeQueryComponent(value)
            else { return nil }
            query[key] = decoded
        }
        return query
    }

    private static let invalidQuery = HTTPResponse.error(
        status: 400,
        code: "invalid_query",
        message: "The query is not valid percent-encoded UTF-8."
    )

    private func pairs(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        // Counting first (no callback) spares the collector for the usual request without a query.
        guard MHD_get_connection_values(connection, kind, nil, nil) > 0 else { return [] }
        let collector = PairCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(
                connection,
                kind,
                collectValueCallback,
                Unmanaged.passUnretained(collector).toOpaque()
            )
        }
        return collector.pairs
    }

    /// The socket's peer address, or — with ``ServerConfiguration/trustProxy`` — the first
    /// address of `X-Forwarded-For` when it is a valid IP literal.
    private func effectiveClientAddress(of connection: OpaquePointer) -> String {
        if configuration.trustProxy, let forwarded = header("X-Forwarded-For", of: connection),
            let first = forwarded.split(separator: ",").first?.trimmingCharacters(in: .whitespaces),
            (try? SocketAddress(host: first, port: 0)) != nil
        {
            return first
        }
        guard let address = rp_connection_client_address(connection) else { return "" }
        return SocketAddress.describe(address)
    }

    private func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            let previous = limit.rlim_cur
            limit.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) != 0 { limit.rlim_cur = previous }
        }
        logger.info("open file limit", metadata: ["soft": "\(limit.rlim_cur)", "hard": "\(limit.rlim_max)"])
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch takes it.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The daemon pointer; libmicrohttpd's daemon functions are thread-safe.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
