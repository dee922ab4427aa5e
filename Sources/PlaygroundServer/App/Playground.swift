import ArgumentParser
import Logging
import MicroHTTP
import ServiceLifecycle

/// The playground put together from its flags: the API with every setting applied, the server's
/// configuration, and the services that run them. ``build(_:logger:)`` makes one without starting
/// anything, so tests reach every flag's effect; ``serve(_:)`` is all the executable does.
public struct Playground: Sendable {
    /// The routes and what they share, every flag applied.
    let api: API
    /// The HTTP server's configuration.
    let configuration: ServerConfiguration
    /// The folder the page is served from.
    let publicRoot: String
    /// `--drain-seconds`.
    let drain: Duration

    /// The playground `options` describe: its page folder found, its store opened, its limits set.
    static func build(_ options: PlaygroundOptions, logger: Logger) throws -> Playground {
        let publicRoot = try PublicFolder.locate(explicit: options.server.publicFolder)
        let metrics = PlaygroundMetrics()
        let sessions = SessionStore(
            settings: options.sessions.settings,
            limits: options.sessions.limits,
            threads: options.sessions.sessionThreads,
            programThreads: options.sessions.programThreads,
            instanceID: options.server.instanceID,
            logger: Logger(label: "playground.sessions"),
            onMemoryHalt: { metrics.memoryLimitReached("program_halted") }
        )
        var api = API(staticFiles: try StaticFiles(root: publicRoot), sessions: sessions, metrics: metrics, roomLimits: options.rooms.limits)
        api.joinAttempts = options.rooms.joinAttempts
        options.programs.apply(to: &api)
        try options.links.apply(to: &api, logger: logger)
        api.gallery = try GalleryIndex(publicRoot: publicRoot)
        api.lessons = LessonIndex(publicRoot: publicRoot, logger: logger)
        api.documentation = try Documentation.locate(explicit: options.server.docsFolder, publicRoot: publicRoot)
        if api.documentation == nil {
            logger.notice("no documentation site found: /docs/ answers 404 (scripts/build-docs.sh builds it)")
        }
        return Playground(
            api: api,
            configuration: options.server.configuration,
            publicRoot: publicRoot,
            drain: .seconds(options.server.drainSeconds)
        )
    }

    /// Sets up the process (malloc arenas, logging), builds the playground and serves it until
    /// SIGTERM or SIGINT, then drains its sessions (``SessionDrainService``) and stops.
    public static func serve(_ options: PlaygroundOptions) async throws {
        ProcessMemory.limitAllocatorArenas(to: options.server.mallocArenas)
        ProcessMemory.fixTrimThreshold(at: 128 * 1024)
        let level = options.server.logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "playground")
        try await build(options, logger: logger).run(logger: logger)
    }

    /// Whether a playground answers `/healthz` where `options` say it listens (`--healthcheck`,
    /// the container's HEALTHCHECK).
    public static func answersHealthCheck(_ options: PlaygroundOptions) -> Bool {
        HealthProbe.check(host: options.server.host, port: options.server.port)
    }

    /// Runs the server and the sessions' drain as one service group.
    func run(logger: Logger) async throws {
        let server = HTTPServer(
            configuration: configuration,
            logger: Logger(label: "microhttp"),
            metrics: api.metrics.server,
            router: api.router()
        )
        let host = configuration.host
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let instance = api.sessions.instanceID ?? "-"
        let publicRoot = publicRoot
        // SIGTERM and SIGINT start a graceful shutdown: the group asks its services to stop in
        // reverse order, each once the one after it has finished, so the sessions drain and end
        // while the server still serves them, then the server stops.
        let group = ServiceGroup(
            services: [
                HTTPServerService(server: server) { port in
                    logger.notice(
                        "Reactive Playground is serving http://\(shownHost):\(port)/",
                        metadata: ["public": "\(publicRoot)", "instance": "\(instance)"]
                    )
                },
                SessionDrainService(sessions: api.sessions, rooms: api.rooms, drain: drain, logger: logger),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        do {
            try await group.run()
        } catch {
            logger.critical("\(error)")
            throw ExitCode.failure
        }
    }
}
