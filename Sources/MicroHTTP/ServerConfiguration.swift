/// The settings of an ``HTTPServer``.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `0.0.0.0`, `::1`, `::`).
    public var host = "127.0.0.1"
    /// The TCP port; `0` binds a free port (read it back from ``HTTPServer/port``).
    public var port: UInt16 = 8080
    /// The largest request body accepted; larger ones are answered 413 `payload_too_large`.
    public var maxBodyBytes = 64 * 1024
    /// How often an idle event stream gets a keep-alive comment.
    public var keepAliveInterval: Duration = .seconds(15)
    /// The most bytes queued for one event-stream client before it is disconnected as too slow.
    public var eventStreamQueueLimit = 256 * 1024
    /// libmicrohttpd's connection limit (`.CONNECTION_LIMIT`); must be positive.
    public var connectionLimit = 10_000
    /// Seconds after which an idle connection is closed (`.CONNECTION_TIMEOUT`); event
    /// streams are kept busy by keep-alive comments well within it.
    public var connectionTimeoutSeconds = 60
    /// How long shutdown waits for event streams to send their final chunk.
    public var drainTimeout: Duration = .milliseconds(500)
    /// Headers added to every response (before the response's own).
    public var defaultHeaders: [(name: String, value: String)] = [("X-Content-Type-Options", "nosniff")]

    /// Creates the default configuration.
    public init() {}
}
