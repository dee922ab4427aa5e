import ArgumentParser
import Foundation
import Logging
import MicroHTTP

/// Where the server listens, what it serves and how it treats connections: the flags that become
/// MicroHTTP's ``ServerConfiguration`` and the process's own settings.
public struct ServerOptions: ParsableArguments {
    @Option(help: "The address to listen on (an IPv4 or IPv6 literal).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port (the bound port is logged).")
    var port: UInt16 = 8080

    @Option(name: .customLong("public"), help: "The folder of the page's static files (found automatically when omitted).")
    var publicFolder: String?

    @Option(
        name: .customLong("docs"),
        help: "The folder of Reactive's documentation site, served under /docs/ (scripts/build-docs.sh; found automatically when omitted)."
    )
    var docsFolder: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "The largest request body accepted, in bytes; larger ones answer 413.")
    var maxBodyBytes = 64 * 1024

    @Option(help: "Open connections at most; beyond, 503 server_busy with Retry-After.")
    var maxConnections = 10_000

    @Option(help: "Requests and event streams in progress per client address at most (429 beyond); 0 for no limit.")
    var maxConnectionsPerClient = 0

    @Flag(help: "Take the client address from X-Forwarded-For (only behind a proxy that sets it).")
    var trustProxy = false

    @Option(help: "Seconds without any traffic after which a connection is closed.")
    var connectionTimeout = 30

    @Option(
        help:
            "Seconds a connection has to send a whole request (head and body) once it is ready for one; slower ones are closed (slowloris), and so are keep-alive connections idle that long."
    )
    var requestTimeout = 10

    @Option(help: "Memory per connection for its request head and response buffer, in KiB (heads over 8 KiB answer 431).")
    var connectionMemoryKib = 20

    @Option(help: "Bytes queued for one event-stream client before it is disconnected as too slow.")
    var sseQueueBytes = 256 * 1024

    @Option(help: "Seconds between keep-alive comments on idle event streams.")
    var keepAliveSeconds = 15

    @Option(
        help:
            "glibc malloc arenas at most (default glibc's own, 8 per core): one per thread keeps users' programs' heaps (and their locks) apart from the scenarios' and the polling thread's; 1 keeps a little less memory after a flood."
    )
    var mallocArenas = min(8 * ProcessInfo.processInfo.activeProcessorCount, 1_024)

    @Option(
        help:
            "This instance's name among several behind a proxy: a DNS label ([a-z0-9-], 1 to 32). Its sessions' ids start with it (ID.), and a request for another instance's session answers 421 misdirected."
    )
    var instanceID: String?

    @Option(
        help:
            "On SIGTERM or SIGINT, seconds to keep serving the live sessions while refusing new ones (/readyz answers 503) before they end with an `end` event and the server stops."
    )
    var drainSeconds = 0

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        try OptionChecks.require(maxBodyBytes, in: 1...(64 * 1024 * 1024), "--max-body-bytes")
        try OptionChecks.require(maxConnections, in: 1...1_000_000, "--max-connections")
        try OptionChecks.require(maxConnectionsPerClient, in: 0...1_000_000, "--max-connections-per-client")
        try OptionChecks.require(connectionTimeout, in: 1...3_600, "--connection-timeout")
        try OptionChecks.require(requestTimeout, in: 1...3_600, "--request-timeout")
        try OptionChecks.require(connectionMemoryKib, in: 12...1_024, "--connection-memory-kib")
        try OptionChecks.require(sseQueueBytes, in: 1_024...(256 * 1024 * 1024), "--sse-queue-bytes")
        if sseQueueBytes < Room.maximumSnapshotBytes + 16 * 1024 {
            // A room's snapshot is bounded by construction: a watcher's queue holds the largest.
            throw ValidationError(
                "--sse-queue-bytes must be at least \(Room.maximumSnapshotBytes / 1024 + 16) KiB: a room's snapshot is up to \(Room.maximumSnapshotBytes / 1024) KiB."
            )
        }
        try OptionChecks.require(keepAliveSeconds, in: 1...3_600, "--keep-alive-seconds")
        try OptionChecks.require(mallocArenas, in: 1...1_024, "--malloc-arenas")
        try OptionChecks.require(drainSeconds, in: 0...3_600, "--drain-seconds")
        if let docsFolder, !FileManager.default.fileExists(atPath: docsFolder + "/index.html") {
            throw ValidationError(
                "--docs \(docsFolder): no documentation site there (a folder with index.html, as scripts/build-docs.sh builds it)."
            )
        }
        if let instanceID, !SessionID.isValidInstance(instanceID) {
            throw ValidationError("--instance-id must be 1 to 32 characters of a-z, 0-9 and -.")
        }
    }

    /// The HTTP server's configuration these flags make, with the page's security headers and
    /// the access log's shortened paths.
    var configuration: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.defaultHeaders = API.securityHeaders
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerClient = maxConnectionsPerClient == 0 ? nil : maxConnectionsPerClient
        configuration.trustProxy = trustProxy
        configuration.accessLogPath = AccessLogPaths.shortened
        configuration.connectionTimeoutSeconds = connectionTimeout
        configuration.requestTimeout = .seconds(requestTimeout)
        configuration.connectionMemoryBytes = connectionMemoryKib * 1024
        configuration.eventStreamQueueLimit = sseQueueBytes
        configuration.keepAliveInterval = .seconds(keepAliveSeconds)
        return configuration
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
