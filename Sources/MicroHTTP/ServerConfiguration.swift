/// The settings of an ``HTTPServer``. Every limit is a `playground` flag; the defaults suit a
/// server reached directly or through one reverse proxy.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`, `::`).
    public var host = "127.0.0.1"
    /// The TCP port; `0` binds a free port (read it back from ``HTTPServer/port``).
    public var port: UInt16 = 8080
    /// The largest request body accepted; larger ones are answered 413 `payload_too_large`.
    public var maxBodyBytes = 64 * 1024
    /// How often an idle event stream gets a keep-alive comment (also how a vanished client is noticed).
    public var keepAliveInterval: Duration = .seconds(15)
    /// The most bytes queued for one event-stream client before it is disconnected as too slow.
    public var eventStreamQueueLimit = 256 * 1024
    /// What the access log writes of a request's path: the path itself by default. A server whose
    /// paths carry capabilities — ids that open a session, a room, a link — shortens them here, so
    /// that a log read by others opens nothing.
    public var accessLogPath: @Sendable (String) -> String = { $0 }
    /// Open connections at most; beyond, requests are answered 503 `server_busy` with `Retry-After`.
    /// libmicrohttpd's own limit is set a little higher, because at its limit it drops new sockets
    /// without a word.
    public var maxConnections = 10_000
    /// Requests (event streams included) in progress per client address at most, answered 429
    /// `rate_limited` beyond; `nil` (the default) for no limit — behind a reverse proxy every client
    /// shares one address unless ``trustProxy`` is set. Unless ``trustProxy`` is set, connections
    /// count too, finished heads or not: libmicrohttpd refuses a client's socket beyond this many
    /// plus ``perClientConnectionAllowance`` (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`), so a slow-head
    /// flood from one address holds few sockets.
    public var maxConnectionsPerClient: Int?
    /// Sockets a client may hold beyond ``maxConnectionsPerClient``: enough for it to be answered a
    /// readable 429 rather than have its socket dropped.
    public static let perClientConnectionAllowance = 8
    /// Whether the client address is the one the proxy in front added to `X-Forwarded-For`, its
    /// last element (set it only behind one proxy that sets or appends to that header; otherwise
    /// clients could claim any address).
    public var trustProxy = false
    /// Seconds without any traffic after which a connection is closed
    /// (`MHD_OPTION_CONNECTION_TIMEOUT`: it restarts with every byte). Event streams stay busy with
    /// keep-alives.
    public var connectionTimeoutSeconds = 30
    /// How long a connection may take to send a whole request, head and body, from the moment it is
    /// ready for one (opened, or its previous response sent); past it the connection is closed,
    /// however steadily it trickles (slowloris). Idle keep-alive connections end after it too.
    public var requestTimeout: Duration = .seconds(10)
    /// Memory per connection, for its request head and its response buffer
    /// (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`, at least 1 KiB). libmicrohttpd reads a head in half of
    /// it at first and grows into part of the rest, so 20 KiB takes heads of ``maxRequestHeadBytes``
    /// with room to answer bigger ones with a JSON 431 (18 KiB takes them, but answers bigger ones
    /// with libmicrohttpd's own HTML 431). A connection held open keeps at least a page of it
    /// resident (docs/PERFORMANCE.md, "Held streams"); event streams that arrive on a connection of
    /// their own get less (``eventStreamConnectionMemory``).
    public var connectionMemoryBytes = 20 * 1024
    /// Smaller connection memories for event streams, smallest first; empty to serve every
    /// connection with ``connectionMemoryBytes``. A connection whose first request is a complete
    /// `GET` asking for `text/event-stream` (as `EventSource` does) is served with the smallest of
    /// these that fits its head, its records and the reply's head, and closed after that one
    /// reply (the reply says `Connection: close`); every other one with ``connectionMemoryBytes``.
    /// A held stream keeps its connection's memory for as long as it lasts: 1 KiB takes the heads
    /// of curl and most scripts, 3 KiB those of browsers (about 550 bytes and 14 fields; 720 and 17
    /// through a proxy, which also gives every request a connection of its own). A browser talking
    /// to the server directly often sends its stream on a connection it opened for something else:
    /// that stream keeps ``connectionMemoryBytes``. Sizes below 1 KiB or not below ``connectionMemoryBytes`` are left out. Each size is a
    /// libmicrohttpd daemon per polling thread, and libmicrohttpd's per-address socket limit
    /// (``maxConnectionsPerClient``) applies to each daemon.
    public var eventStreamConnectionMemory = [1_024, 3_072]
    /// The largest request head (request line and header fields) accepted; bigger ones are answered
    /// 431 `headers_too_large` — by the server while the head fits in ``connectionMemoryBytes``, by
    /// libmicrohttpd's own HTML 431 beyond.
    public var maxRequestHeadBytes = 8 * 1024
    /// Polling threads, each running a libmicrohttpd daemon with its own epoll set; all accept on
    /// one listening socket, so connections are spread over them. Never a thread per connection.
    /// libmicrohttpd's per-address socket limit applies to each daemon.
    public var pollingThreads = 1

    /// How long shutdown waits for event streams to send their final chunk.
    public var drainTimeout: Duration = .milliseconds(500)
    /// Headers added to every response (before the response's own). A response that sets a header
    /// of the same name (any case) replaces the default; set to an empty value, it removes it (a
    /// page that may be framed leaves out the `X-Frame-Options` every other page sends).
    public var defaultHeaders: [(name: String, value: String)] = [("X-Content-Type-Options", "nosniff")]

    /// Creates the default configuration.
    public init() {}
}

/// The headers a response is sent with: the defaults its own headers do not replace, then its own,
/// less those set to an empty value (see ``ServerConfiguration/defaultHeaders``). Sent with every
/// response: a few comparisons, no allocation beyond the result.
func headers(
    _ own: [(name: String, value: String)],
    over defaults: [(name: String, value: String)]
) -> [(name: String, value: String)] {
    guard !own.isEmpty else { return defaults }
    var result: [(name: String, value: String)] = []
    result.reserveCapacity(defaults.count + own.count)
    for header in defaults where !own.contains(where: { sameName($0.name, header.name) }) { result.append(header) }
    for header in own where !header.value.isEmpty { result.append(header) }
    return result
}

/// Whether two header names are equal, ignoring ASCII case.
private func sameName(_ first: String, _ second: String) -> Bool {
    first.utf8.count == second.utf8.count
        && zip(first.utf8, second.utf8).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
}
