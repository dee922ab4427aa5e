import ArgumentParser
import Dispatch
import Foundation
import Logging
import MicroHTTP
import Scenarios

/// `playground`: serves the Reactive Playground's page, JSON API and live event streams.
@main
struct PlaygroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Serve the Reactive Playground: live reactive pipelines over HTTP and Server-Sent Events."
    )

    @Option(help: "The address to listen on (an IPv4 or IPv6 literal).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free port (the bound port is logged).")
    var port: UInt16 = 8080

    @Option(name: .customLong("public"), help: "The folder of the page's static files (found automatically when omitted).")
    var publicFolder: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "The ticker scenario's period, in milliseconds.")
    var tickerIntervalMs = 1_000

    @Flag(help: "Check that a playground answers /healthz on --host/--port and exit 0 if it does, 1 if not.")
    var healthcheck = false

    func validate() throws {
        guard tickerIntervalMs >= 10 && tickerIntervalMs <= 3_600_000 else {
            throw ValidationError("--ticker-interval-ms must be between 10 and 3600000.")
        }
    }

    func run() throws {
        if healthcheck {
            throw ExitCode(HealthProbe.check(host: host, port: port) ? 0 : 1)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "playground")
        let publicRoot = try PublicFolder.locate(explicit: publicFolder)

        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(tickerIntervalMs)

        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.defaultHeaders = API.securityHeaders

        let api = API(staticFiles: try StaticFiles(root: publicRoot), settings: settings)
        let server = HTTPServer(configuration: configuration, logger: Logger(label: "microhttp"), router: api.router())
        do {
            try server.start()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        logger.notice("Reactive Playground is serving http://\(shownHost):\(server.port)/", metadata: ["public": "\(publicRoot)"])
        ShutdownSignals.install(logger: logger) {
            server.shutdown()
        }
        dispatchMain()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
