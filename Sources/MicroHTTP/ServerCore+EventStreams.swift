import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging

/// Event streams: opening one on a connection, and the keep-alive comments idle ones get.
extension ServerCore: EventStreamBooks {
    // MARK: Event streams

    func openEventStream(on connection: OpaquePointer) -> EventStream? {
        let daemon = rp_connection_daemon(connection)
        guard let loop = state.withLock({ state in state.loops.first { $0.daemon.pointer == daemon } }) else { return nil }
        let stream = EventStream(
            connection: connection,
            loop: loop,
            settings: streamSettings,
            lastEventID: header("Last-Event-ID", of: connection),
            books: self
        )
        let record = Self.record(of: connection)
        let registered = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.streams[ObjectIdentifier(stream)] = OpenStream(stream: stream, record: record)
            return true
        }
        guard registered else { return nil }
        metrics.eventStreamOpened()
        if let record { watch.watchHangUp(of: record, for: stream) }
        return stream
    }

    /// A stream ended (its response was freed): out of the books and out of its connection's
    /// record, which held it for hang-ups.
    func eventStreamEnded(_ stream: EventStream) {
        let open = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
        guard let open else { return }
        if let record = open.record { watch.forgetStream(stream, of: record) }
        metrics.eventStreamClosed()
    }

    /// Sends `event` to every open stream; returns how many.
    func broadcast(_ event: ServerSentEvent) -> Int {
        let streams = state.withLock { $0.streams.values.map(\.stream) }
        for stream in streams { stream.send(event) }
        return streams.count
    }

    /// Every `keepAliveInterval`, a comment to every open stream: it keeps proxies from timing out,
    /// and writing is how a suspended stream finds out that its client has gone.
    func scheduleKeepAlive() {
        keepAliveQueue.asyncAfter(deadline: .now() + configuration.keepAliveInterval.seconds) { [weak self] in
            guard let self else { return }
            let streams = self.state.withLock { $0.isStopping ? nil : $0.streams.values.map(\.stream) }
            guard let streams else { return }
            for stream in streams { stream.sendComment("keep-alive") }
            self.scheduleKeepAlive()
        }
    }
}

/// An open stream in the server's books, with the record of the connection it is on (whose
/// hang-ups reach the stream until it ends).
struct OpenStream {
    let stream: EventStream
    let record: ConnectionWatch.Record?
}
