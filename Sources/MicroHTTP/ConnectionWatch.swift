import CMicroHTTPD
import Dispatch
import Foundation
import Locking

/// What libmicrohttpd does not do for a server on the open internet, done on one thread of its own:
///
/// - **The request deadline.** libmicrohttpd's connection timeout restarts with every byte, so a
///   client sending one byte every few seconds holds its connection for ever (slowloris). Here a
///   connection that is waiting for a request must have sent all of it — head and body — within
///   ``ServerConfiguration/requestTimeout`` of becoming ready for it (its start, or the end of the
///   previous response); otherwise its socket is shut down, which libmicrohttpd sees at once and
///   closes. Idle keep-alive connections therefore last at most that long too.
/// - **Hang-ups of suspended event streams.** libmicrohttpd does not poll a suspended connection,
///   so a client that closed an idle stream was noticed only at the next keep-alive write. Each
///   event stream's socket is in an epoll set of this thread's, reporting only hang-up and errors;
///   when one comes, the stream is told, and it resumes its connection so libmicrohttpd closes it.
/// - **Silent peers.** TCP keep-alive probes and `TCP_USER_TIMEOUT` on every socket make the kernel
///   end a connection whose peer vanished without a packet; the error reaches the epoll set above.
/// - **Returning memory.** Every closed connection is a release for ``HeapTrimmer``, and every
///   sweep lets it trim the heap when they pause — after a flood of streams or sessions, not only
///   once the last one has gone.
///
/// Thread safety: the registry is under a mutex. libmicrohttpd reports a connection closed (and
/// we forget it, under that mutex) *before* it closes the socket, and the deadline sweep shuts
/// sockets down under the same mutex, so it never touches a descriptor that was closed and reused.
final class ConnectionWatch: Sendable {
    /// One open connection. Its fields are read and written under the watch's mutex only.
    final class Record: @unchecked Sendable {
        /// The key of this record, and its epoll token.
        let token: UInt64
        let socket: Int32
        let peer: String
        /// When the request being waited for must be complete (uptime nanoseconds); `nil` while one
        /// is being answered.
        var deadline: UInt64?
        var isShutDown = false
        /// The event stream on this connection, for hang-ups, until it ends. Strong: a weak
        /// reference would give every stream a side table of its own (48 bytes).
        var stream: EventStream?

        init(token: UInt64, socket: Int32, peer: String, deadline: UInt64) {
            self.token = token
            self.socket = socket
            self.peer = peer
            self.deadline = deadline
        }
    }

    private struct State {
        var records: [UInt64: Record] = [:]
        var nextToken: UInt64 = 1
        var isStopped = false
    }

    private let state = Lock(State())
    private let epoll: Int32
    private let requestTimeout: UInt64
    private let metrics: ServerMetrics
    private let sweepInterval: Int32 = 250  // milliseconds

    init(requestTimeout: Duration, metrics: ServerMetrics) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        self.requestTimeout = requestTimeout.nanosecondsClamped
        self.metrics = metrics
        let thread = Thread { [self] in
            ThreadWork.setName("http.watch")  // the system's 15 bytes (`top -H`, `perf sched`)
            run()
        }
        thread.name = "microhttp.connection-watch"
        thread.start()
    }

    /// Stops the thread (at shutdown, after libmicrohttpd has closed every connection).
    func stop() {
        state.withLock { $0.isStopped = true }
    }

    // MARK: Called by the server on libmicrohttpd's threads

    /// A connection opened: sets its TCP liveness options and starts its request deadline.
    func opened(socket: Int32, peer: String) -> Record {
        // Keep-alive probes after 15 s of silence, 3 of them 5 s apart; and data unacknowledged for
        // 20 s ends the connection. Not 30 s: retransmissions back off exponentially and the
        // timeout is only checked at one, so 30 s became 51 s after the first unanswered
        // keep-alive comment (up to 15 s after the client vanished): over a minute in all.
        if socket >= 0 { _ = rp_set_tcp_liveness(socket, 15, 5, 3, 20_000) }
        let deadline = Self.now.addingClamped(requestTimeout)
        return state.withLock { state in
            defer { state.nextToken += 1 }
            let record = Record(token: state.nextToken, socket: socket, peer: peer, deadline: deadline)
            state.records[record.token] = record
            return record
        }
    }

    /// The request on `record`'s connection is being answered: no deadline until it completes.
    func answering(_ record: Record) {
        state.withLock { _ in record.deadline = nil }
    }

    /// The response on `record`'s connection completed: the next request has its deadline.
    func waitingForRequest(_ record: Record) {
        state.withLock { _ in record.deadline = Self.now.addingClamped(requestTimeout) }
    }

    /// An event stream opened on `record`'s connection: its hang-up will be reported to `stream`.
    func watchHangUp(of record: Record, for stream: EventStream) {
        let registered = state.withLock { _ -> Bool in
            record.stream = stream
            return record.socket >= 0
        }
        if registered {
            _ = rp_epoll_watch_hangup(epoll, record.socket, record.token)
        }
    }

    /// The event stream on `record`'s connection ended: hang-ups no longer concern it.
    func forgetStream(_ stream: EventStream, of record: Record) {
        let forgotten = state.withLock { _ -> EventStream? in
            guard record.stream === stream else { return nil }
            defer { record.stream = nil }
            return record.stream
        }
        _ = forgotten  // released here, outside the mutex
    }

    /// libmicrohttpd is about to close `record`'s socket: forget it. (Closing the socket takes it
    /// out of the epoll set.) Its memory is about to be freed: a release for the heap trimmer.
    func closed(_ record: Record) {
        state.withLock { _ = $0.records.removeValue(forKey: record.token) }
        HeapTrimmer.shared.noteRelease()
    }

    // MARK: The watch thread

    private func run() {
        var tokens = [UInt64](repeating: 0, count: 256)
        var lastSweep = Self.now
        while !state.withLock({ $0.isStopped }) {
            let count = tokens.withUnsafeMutableBufferPointer {
                rp_epoll_wait_tokens(epoll, $0.baseAddress, Int32($0.count), sweepInterval)
            }
            if count > 0 { hangUps(Array(tokens.prefix(Int(count)))) }
            let now = Self.now
            if now - lastSweep >= UInt64(sweepInterval) * 1_000_000 {
                lastSweep = now
                sweepDeadlines(now: now)
                if HeapTrimmer.shared.trimIfDue() { metrics.heapTrims.increment() }
            }
        }
        close(epoll)
    }

    private func hangUps(_ tokens: [UInt64]) {
        let streams = state.withLock { state in tokens.compactMap { state.records[$0]?.stream } }
        for stream in streams where stream.clientHungUp() {
            metrics.hangUpsNoticed.increment()
        }
    }

    private func sweepDeadlines(now: UInt64) {
        let expired = state.withLock { state -> Int in
            var expired = 0
            for record in state.records.values where !record.isShutDown {
                guard let deadline = record.deadline, deadline <= now, record.socket >= 0 else { continue }
                record.isShutDown = true
                // Under the mutex: the socket is still this connection's (see the type's comment).
                shutdown(record.socket, Int32(SHUT_RDWR))
                expired += 1
            }
            return expired
        }
        if expired > 0 { metrics.requestDeadlinesExpired.increment(by: expired) }
    }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}
