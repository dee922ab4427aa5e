import MicroHTTP

extension API {
    /// Health, readiness, metrics and whether the documentation site is built: what a proxy,
    /// an orchestrator or the page asks of the server itself.
    func addHealthRoutes(to router: inout Router) {
        router.add(.get, "/healthz") { _ in .text("ok") }
        // Ready while new sessions are taken: a proxy or an orchestrator stops sending new users
        // to an instance that drains (--drain-seconds).
        router.add(.get, "/readyz") { [sessions] _ in
            sessions.isDraining ? Self.draining : .text("ready")
        }
        router.add(.get, "/metrics") { [metrics, sessions] _ in
            HTTPResponse(
                status: 200,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: .bytes(
                    metrics.render(sessions: sessions.count, programEventBytes: sessions.programEventBytes.total, rooms: rooms.counts)
                )
            )
        }
        // Whether `/docs/` has a site, so that the page asks for its index only then (a fetch
        // that answers 404 is an error in the browser's console).
        router.add(.get, "/api/docs") { [documentation] _ in
            .json(Documentation.Status(built: documentation != nil))
        }
    }
}
