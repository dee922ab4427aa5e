import ArgumentParser
import Dispatch
import Foundation
import Locking
import Logging
import MicroHTTP
import Prometheus

/// `microhttp-echo`: the server core alone, for the load benchmark. `GET /events` is an event
/// stream; `POST /publish` sends its body to every open stream as one event; other paths are
/// static files from `--public`.
@main
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "microhttp-echo",
        abstract: "A minimal MicroHTTP server for load benchmarks: SSE fan-out and static files."
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port.")
    var port: UInt16 = 8081

    @Option(name: .customLong("public"), help: "The folder of static files.")
    var publicFolder = "Public"

    @Option(help: "Log level.")
    var logLevel: Logger.Level = .warning

    @Option(help: "Seconds between keep-alive comments on idle streams (how vanished clients are noticed).")
    var keepAliveSeconds = 15

    @Option(help: "libmicrohttpd polling threads (default: one per core).")
    var pollingThreads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Memory per connection, in KiB (its benchmark clients send request heads well under 1 KiB).")
    var connectionMemoryKib = 4

    @Option(help: "glibc malloc arenas at most (1 lets freed memory go back to the system).")
    var mallocArenas = 1

    func validate() throws {
        for (value, range, flag) in [
            (keepAliveSeconds, 1...3_600, "--keep-alive-seconds"),
            (pollingThreads, 1...256, "--polling-threads"),
            (connectionMemoryKib, 1...1_024, "--connection-memory-kib"),
            (mallocArenas, 1...64, "--malloc-arenas"),
        ] where !range.contains(value) {
            throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound).")
        }
    }

    func run() throws {
        ProcessMemory.limitAllocatorArenas(to: mallocArenas)
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        // The server's own books of open streams are what /publish sends to; the handler runs
        // only once the server exists.
        let publisher = Lock<HTTPServer?>(nil)
        let files = try StaticFiles(root: publicFolder)
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[ServerMetrics.requestDurationLabel] = ServerMetrics.requestDurationBuckets
        let metrics = ServerMetrics(factory: factory)
        var router = Router()
        router.add(.get, "/events") { _ in .eventStream { _ in } }
        router.add(.post, "/publish") { request in
            let event = ServerSentEvent(data: String(decoding: request.body, as: UTF8.self))
            let count = publisher.withLock { $0 }?.broadcast(event) ?? 0
            return .json(["streams": count], status: 202)
        }
        router.add(.get, "/metrics") { _ in .text(registry.emitToString()) }
        router.setFallback(files.respond(to:))
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.maxConnections = 60_000
        configuration.keepAliveInterval = .seconds(keepAliveSeconds)
        configuration.pollingThreads = pollingThreads
        configuration.connectionMemoryBytes = connectionMemoryKib * 1024
        let server = HTTPServer(
            configuration: configuration,
            logger: Logger(label: "microhttp-echo"),
            metrics: metrics,
            router: router
        )
        publisher.withLock { $0 = server }
        try server.start()
        FileHandle.standardOutput.write(Data("microhttp-echo listening on http://\(host):\(server.port)/\n".utf8))
        let stop = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        signal(SIGTERM, SIG_IGN)
        stop.setEventHandler {
            server.shutdown()
            Foundation.exit(0)
        }
        stop.resume()
        withExtendedLifetime(stop) { dispatchMain() }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
