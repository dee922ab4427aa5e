import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging

/// Event streams: opening one on a connection, and the keep-alive comments idle ones get.
extension ServerCore {
    // MARK: Event streams

    func openEventStream(on connection: OpaquePointer) -> EventStream? {
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
    func scheduleKeepAlive() {
        keepAliveQueue.asyncAfter(deadline: .now() + configuration.keepAliveInterval.seconds) { [weak self] in
            guard let self else { return }
            let streams = self.state.withLock { $0.isStopping ? nil : Array($0.streams.values) }
            guard let streams else { return }
            for stream in streams { stream.sendComment("keep-alive") }
            self.scheduleKeepAlive()
        }
    }
}
