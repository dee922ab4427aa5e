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

    /// Sends `event` to every event stream the server has open, whichever route opened it, and
    /// returns how many. The server keeps these books anyway (for keep-alives and shutdown), so a
    /// server that broadcasts needs no list, and no termination action, of its own per stream.
    @discardableResult
    public func broadcast(_ event: ServerSentEvent) -> Int { core.broadcast(event) }

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
    struct State {
        /// One per polling thread, each with its daemon; empty before start and after shutdown.
        var loops: [PollingLoop] = []
        /// Accepts for the daemons when event streams get smaller connection memory.
        var sorter: ConnectionSorter?
        var port: UInt16 = 0
        var streams: [ObjectIdentifier: OpenStream] = [:]
        /// Responses being computed elsewhere, their connections suspended.
        var deferred: [ObjectIdentifier: DeferredResponse] = [:]
        var isStopping = false
        var selfRetain: Unmanaged<ServerCore>?
        var inFlightPerClient: [String: Int] = [:]
    }

    let configuration: ServerConfiguration
    let logger: Logger
    let metrics: ServerMetrics
    let handler: Router.Handler
    let preflight: HTTPServer.HeadCheck?
    let state = Lock(State())
    let keepAliveQueue = DispatchQueue(label: "microhttp.keep-alive")
    /// Request deadlines, stream hang-ups and memory return (see ``ConnectionWatch``).
    let watch: ConnectionWatch
    /// What every event stream of this server shares.
    let streamSettings: EventStreamSettings
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
        watch = ConnectionWatch(requestTimeout: configuration.requestTimeout, metrics: metrics)
        streamSettings = EventStreamSettings(queueLimit: configuration.eventStreamQueueLimit, metrics: metrics)
    }

    var boundPort: UInt16 { state.withLock { $0.port } }
    var openEventStreams: Int { state.withLock { $0.streams.count } }

    func start() throws {
        raiseOpenFileLimit()
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        let retained = Unmanaged.passRetained(self)
        let compactSizes = Self.compactSizes(configuration)
        let started =
            compactSizes.isEmpty
            ? startListeningDaemons(address, retained) : startSortedDaemons(address, compactSizes, retained)
        guard let (loops, sorter, port) = started else {
            retained.release()
            watch.stop()
            throw HTTPServerError.startFailed(host: configuration.host, port: configuration.port)
        }
        state.withLock { state in
            state.loops = loops
            state.sorter = sorter
            state.port = port
            state.selfRetain = retained
        }
        for (index, loop) in loops.enumerated() { loop.start(name: "http.poll-\(index)") }
        sorter?.start()
        scheduleKeepAlive()
        logger.info(
            "listening",
            metadata: [
                "host": "\(configuration.host)", "port": "\(port)",
                "eventStreamConnectionMemory": "\(compactSizes.map(String.init).joined(separator: ","))",
            ]
        )
    }

    /// The event streams' connection memories that the configuration uses (see
    /// ``ServerConfiguration/eventStreamConnectionMemory``), smallest first.
    static func compactSizes(_ configuration: ServerConfiguration) -> [Int] {
        let regular = max(1_024, configuration.connectionMemoryBytes)
        return Set(configuration.eventStreamConnectionMemory.filter { $0 >= 1_024 && $0 < regular }).sorted()
    }

    /// Without smaller memories for streams: one daemon per polling thread; the first binds the
    /// address, the others accept on a duplicate of its listening socket.
    private func startListeningDaemons(
        _ address: SocketAddress,
        _ retained: Unmanaged<ServerCore>
    ) -> ([PollingLoop], ConnectionSorter?, UInt16)? {
        var loops: [PollingLoop] = []
        for _ in 0..<max(1, configuration.pollingThreads) {
            let daemon: OpaquePointer?
            if let first = loops.first {
                let listener = dup(rp_daemon_listen_fd(first.daemon.pointer))
                // Not closed if the start fails: some of libmicrohttpd's failure paths close it.
                daemon = listener < 0 ? nil : startDaemon(listenOption: rp_option_int(.LISTEN_SOCKET, Int(listener)), retained)
            } else {
                daemon = address.withSockaddr { sockaddr in
                    startDaemon(
                        listenOption: rp_option_pointer(.SOCK_ADDR, UnsafeMutableRawPointer(mutating: sockaddr)),
                        isIPv6: address.isIPv6,
                        retained
                    )
                }
            }
            guard let daemon, let loop = PollingLoop(daemon: daemon) else {
                if let daemon { MHD_stop_daemon(daemon) }
                for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
                return nil
            }
            loops.append(loop)
        }
        return (loops, nil, rp_daemon_bound_port(loops[0].daemon.pointer))
    }

    /// With smaller memories for streams: the server binds the address and a ``ConnectionSorter``
    /// accepts, for daemons without a listening socket of their own — per polling thread one with
    /// the regular memory and one per smaller size.
    private func startSortedDaemons(
        _ address: SocketAddress,
        _ sizes: [Int],
        _ retained: Unmanaged<ServerCore>
    ) -> ([PollingLoop], ConnectionSorter?, UInt16)? {
        guard let listener = openListeningSocket(address) else { return nil }
        var loops: [PollingLoop] = []
        func loop(memoryBytes: Int) -> PollingLoop? {
            guard let daemon = startDaemon(listenOption: nil, memoryBytes: memoryBytes, retained) else { return nil }
            guard let loop = PollingLoop(daemon: daemon, closesAfterOneRequest: memoryBytes != configuration.connectionMemoryBytes)
            else {
                MHD_stop_daemon(daemon)
                return nil
            }
            loops.append(loop)
            return loop
        }
        let threads = max(1, configuration.pollingThreads)
        var regular: [PollingLoop] = []
        var destinations: [ConnectionSorter.Destination] = []
        var complete = true
        for _ in 0..<threads {
            if let made = loop(memoryBytes: configuration.connectionMemoryBytes) { regular.append(made) } else { complete = false }
        }
        for size in sizes where complete {
            var sized: [PollingLoop] = []
            for _ in 0..<threads { if let made = loop(memoryBytes: size) { sized.append(made) } else { complete = false } }
            destinations.append(.init(memoryBytes: size, loops: sized))
        }
        let sorter =
            complete
            ? ConnectionSorter(
                listenSocket: listener,
                regular: regular,
                compact: destinations,
                replyHeadBytes: StreamHeadSizing.replyHeadBytes(defaultHeaders: configuration.defaultHeaders),
                logger: logger,
                metrics: metrics
            ) : nil
        guard let sorter else {
            for loop in loops { MHD_stop_daemon(loop.daemon.pointer) }
            close(listener)
            return nil
        }
        return (loops, sorter, localPort(of: listener))
    }

    /// Starts a daemon for ``PollingLoop`` (epoll, no thread of its own) with the server's options:
    /// listening as `listenOption` says, or (nil) taking connections from a ``ConnectionSorter``.
    private func startDaemon(
        listenOption: MHD_OptionItem?,
        memoryBytes: Int? = nil,
        isIPv6: Bool = false,
        _ retained: Unmanaged<ServerCore>
    ) -> OpaquePointer? {
        var flags =
            MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if listenOption == nil { flags |= MHD_USE_NO_LISTEN_SOCKET.rawValue }
        var options: [MHD_OptionItem] = [
            rp_option_logger(retained.toOpaque()),  // first, or earlier options log to stderr
            // A little above the application's cap, so that the cap answers 503 instead of
            // libmicrohttpd silently dropping sockets.
            rp_option_int(.CONNECTION_LIMIT, max(1, configuration.maxConnections + 64)),
            rp_option_int(.CONNECTION_TIMEOUT, max(1, configuration.connectionTimeoutSeconds)),
            rp_option_int(.CONNECTION_MEMORY_LIMIT, max(1_024, memoryBytes ?? configuration.connectionMemoryBytes)),
            rp_option_int(.PER_IP_CONNECTION_LIMIT, perClientSocketLimit),
            rp_option_notify_completed(requestCompletedCallback, retained.toOpaque()),
            rp_option_notify_connection(connectionNotifyCallback, retained.toOpaque()),
            rp_option_unescape(keepEscapesCallback, nil),
            rp_option_end(),
        ]
        if let listenOption { options.insert(listenOption, at: 1) }
        return options.withUnsafeMutableBufferPointer { buffer in
            rp_start_daemon(flags, configuration.port, accessHandlerCallback, retained.toOpaque(), buffer.baseAddress)
        }
    }

    func shutdown() {
        let taken = state.withLock { state -> ([PollingLoop], [EventStream])? in
            guard !state.loops.isEmpty, !state.isStopping else { return nil }
            state.isStopping = true
            return (state.loops, state.streams.values.map(\.stream))
        }
        guard let (loops, streams) = taken else { return }
        state.withLock { $0.sorter }?.stop()
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
            state.sorter = nil
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
