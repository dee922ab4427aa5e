import Dispatch
import Logging
import MicroHTTP
import ServiceLifecycle

/// The HTTP server as a swift-service-lifecycle service. It starts when the group runs it, after
/// the group has taken SIGTERM and SIGINT over, so that no client can reach a server whose signal
/// would still kill the process outright; `started` then says where it listens. On graceful
/// shutdown it stops accepting, ends the event streams and gives them at most 500 ms to flush
/// (``HTTPServer/shutdown()``).
struct HTTPServerService: Service {
    let server: HTTPServer
    let started: @Sendable (_ port: UInt16) -> Void

    func run() async throws {
        try server.start()
        started(server.port)
        // Cancellation (rather than a graceful shutdown) stops the server the same way.
        try? await gracefulShutdown()
        // `shutdown()` blocks while the streams flush: on a thread of its own, not the pool's.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                server.shutdown()
                done.resume()
            }
        }
    }
}

/// The sessions' drain, as a service after the server's, so the group stops it first: on graceful
/// shutdown the store takes no new sessions (`/readyz` and session creation answer 503
/// `draining`), serves the live ones for `drain` (`--drain-seconds`) so that a proxy or an
/// orchestrator sees the instance unready and moves new users elsewhere, then ends every session
/// with a final `event: end`, `{"reason": "draining"}`, to each watcher.
struct SessionDrainService: Service {
    let sessions: SessionStore
    /// The rooms, ended before the sessions (their streams get the same `end` event).
    let rooms: RoomStore
    let drain: Duration
    let logger: Logger

    func run() async throws {
        // Cancelled rather than shut down gracefully (another service failed): no drain, just the end.
        let isGraceful = (try? await gracefulShutdown()) != nil
        sessions.startDraining()
        if isGraceful {
            logger.notice(
                "shutting down: new sessions refused; live sessions served for \(drain) before they end",
                metadata: ["sessions": "\(sessions.count)"]
            )
            // Cancelling the group cuts the drain short, never the end.
            if drain > .zero { try? await Task.sleep(for: drain) }
        }
        rooms.endAll(reason: "draining")
        sessions.closeAll(reason: "draining")
    }
}
