import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging
import Synchronization

/// Accepts the server's connections on a thread of its own and hands each to the daemon whose
/// connection memory suits its first request (`MHD_add_connection`, run on that daemon's loop).
///
/// Why: libmicrohttpd 0.9.75 reads a head into the memory of the daemon that holds the
/// connection, sized once per daemon, and keeps that memory for as long as the connection lives.
/// Heads of up to 8 KiB need about 20 KiB; an event stream, held for hours, would pay for that
/// room all along (at least one page resident, docs/PERFORMANCE.md). So the sorter peeks at the
/// head (`MSG_PEEK`: libmicrohttpd reads the same bytes again) and sends a complete event-stream
/// request (``StreamHeadSizing``) to the smallest daemon of ``ServerConfiguration/eventStreamConnectionMemory``
/// it fits, which closes the connection after that one reply; everything else goes to the
/// regular daemons, as before. A connection that has sent nothing yet waits here, in an epoll
/// set, at most ``longestWait``; one whose head is not all there is sent on at once.
///
/// Thread safety: the pending connections are the sorter's thread's alone; ``stop()`` may be
/// called from any other thread.
final class ConnectionSorter: Sendable {
    /// Daemons with one size of connection memory, one per polling thread.
    struct Destination: Sendable {
        let memoryBytes: Int
        let loops: [PollingLoop]
    }

    /// The longest a connection waits for its first bytes before it goes to a regular daemon
    /// (whose timeouts then apply): clients send their request with or right after the handshake.
    static let longestWait: Duration = .seconds(1)
    /// Connections waiting at most; beyond, the oldest goes on at once.
    static let mostPending = 1_024

    private let listenSocket: Int32
    private let epoll: Int32
    private let wake: Int32
    private let regular: [PollingLoop]
    private let compact: [Destination]
    private let replyHeadBytes: Int
    private let logger: Logger
    private let metrics: ServerMetrics
    private let isStopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    private static let listenTag = UInt64.max
    private static let wakeTag = UInt64.max - 1

    /// A sorter for `listenSocket` (listening, non-blocking; the sorter closes it), or nil if its
    /// epoll set cannot be made. `compact` is ordered smallest first.
    init?(
        listenSocket: Int32,
        regular: [PollingLoop],
        compact: [Destination],
        replyHeadBytes: Int,
        logger: Logger,
        metrics: ServerMetrics
    ) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wake = rp_wake_descriptor()
        guard epoll >= 0, wake >= 0, !regular.isEmpty else {
            if epoll >= 0 { close(epoll) }
            if wake >= 0 { close(wake) }
            return nil
        }
        self.listenSocket = listenSocket
        self.epoll = epoll
        self.wake = wake
        self.regular = regular
        self.compact = compact
        self.replyHeadBytes = replyHeadBytes
        self.logger = logger
        self.metrics = metrics
        guard watch(listenSocket, tag: Self.listenTag), watch(wake, tag: Self.wakeTag) else { return nil }
    }

    deinit {
        close(epoll)
        close(wake)
    }

    /// Starts the sorter's thread.
    func start() {
        let thread = Thread { [self] in
            ThreadWork.setName("http.accept")
            run()
            finished.signal()
        }
        thread.name = "http.accept"
        thread.start()
    }

    /// Stops accepting, closes the listening socket and the connections still waiting, and waits
    /// for the thread. Idempotent. Call before the loops stop: connections handed on before it are
    /// added by their loops' next turn.
    func stop() {
        guard !isStopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
        finished.wait()
    }

    // MARK: The thread

    private struct Pending {
        var address: sockaddr_storage
        var length: socklen_t
        var serial: UInt64
    }

    private func run() {
        var pending: [Int32: Pending] = [:]
        var queue: [(socket: Int32, serial: UInt64, deadline: ContinuousClock.Instant)] = []
        var queueStart = 0
        var serial: UInt64 = 0
        var turn = 0
        let peekBytes = max(1, (compact.last?.memoryBytes ?? 0) / 2)
        let peekBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: peekBytes, alignment: 1)
        defer { peekBuffer.deallocate() }
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var acceptingAgainAt: ContinuousClock.Instant?

        func handOn(_ socket: Int32, _ entry: Pending, to loops: [PollingLoop]) {
            turn &+= 1
            loops[turn % loops.count].add(socket: socket, address: entry.address, length: entry.length)
        }
        /// Sends `socket` where its head says, or leaves it waiting; `waited`: it has had its chance.
        func sort(_ socket: Int32, _ entry: Pending, waited: Bool) -> Bool {
            let count = recv(socket, peekBuffer.baseAddress, peekBytes, Int32(MSG_PEEK | MSG_DONTWAIT))
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, !waited { return false }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                close(socket)  // gone before a word: nothing to answer
                return true
            }
            let needed =
                count > 0
                ? StreamHeadSizing.memoryNeeded(
                    forHead: UnsafeRawBufferPointer(rebasing: peekBuffer[0..<count]),
                    replyHeadBytes: replyHeadBytes
                ) : nil
            if let needed, let destination = compact.first(where: { $0.memoryBytes >= needed }) {
                metrics.compactStreamConnections.increment()
                handOn(socket, entry, to: destination.loops)
            } else {
                handOn(socket, entry, to: regular)
            }
            return true
        }

        while !isStopping.load(ordering: .acquiring) {
            let now = ContinuousClock.now
            if let resume = acceptingAgainAt, now >= resume {
                acceptingAgainAt = nil
                _ = watch(listenSocket, tag: Self.listenTag)
            }
            // Connections whose wait is over go to a regular daemon.
            while queueStart < queue.count, queue[queueStart].deadline <= now {
                let (socket, number, _) = queue[queueStart]
                queueStart += 1
                if let entry = pending[socket], entry.serial == number {
                    pending[socket] = nil
                    unwatch(socket)
                    _ = sort(socket, entry, waited: true)
                }
            }
            if queueStart > 256, queueStart * 2 > queue.count {
                queue.removeFirst(queueStart)
                queueStart = 0
            }
            var wait = Int32(-1)
            for instant in [queueStart < queue.count ? queue[queueStart].deadline : nil, acceptingAgainAt].compactMap({ $0 }) {
                let milliseconds = Int32(clamping: max(0, (instant - now).wholeMilliseconds) + 1)
                wait = wait < 0 ? milliseconds : min(wait, milliseconds)
            }
            let ready = epoll_wait(epoll, &events, Int32(events.count), wait)
            guard ready > 0 else { continue }  // timeout or EINTR
            for event in events[0..<Int(ready)] {
                switch event.data.u64 {
                case Self.wakeTag:
                    continue  // stopping: the loop condition sees it
                case Self.listenTag:
                    acceptLoop: for _ in 0..<64 {
                        var entry = Pending(address: sockaddr_storage(), length: socklen_t(MemoryLayout<sockaddr_storage>.size), serial: 0)
                        let socket = withUnsafeMutablePointer(to: &entry.address) { storage in
                            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                                rp_accept(listenSocket, $0, &entry.length)
                            }
                        }
                        guard socket >= 0 else {
                            switch errno {
                            case EINTR, ECONNABORTED: continue
                            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                                // Out of descriptors: stop watching the listening socket for a while,
                                // or it would be readable, and this thread busy, until one is freed.
                                logger.warning("cannot accept", metadata: ["errno": "\(errno)"])
                                unwatch(listenSocket)
                                acceptingAgainAt = ContinuousClock.now + .milliseconds(100)
                                break acceptLoop
                            default: break acceptLoop
                            }
                        }
                        if sort(socket, entry, waited: false) { continue }
                        if pending.count >= Self.mostPending {
                            // The oldest still waiting goes on, to make room.
                            while queueStart < queue.count {
                                let (oldest, number, _) = queue[queueStart]
                                queueStart += 1
                                if let waiting = pending[oldest], waiting.serial == number {
                                    pending[oldest] = nil
                                    unwatch(oldest)
                                    handOn(oldest, waiting, to: regular)
                                    break
                                }
                            }
                        }
                        serial &+= 1
                        entry.serial = serial
                        guard watch(socket, tag: UInt64(socket), oneShot: true) else {
                            handOn(socket, entry, to: regular)
                            continue
                        }
                        pending[socket] = entry
                        queue.append((socket, serial, ContinuousClock.now + Self.longestWait))
                    }
                default:
                    let socket = Int32(truncatingIfNeeded: event.data.u64)
                    guard let entry = pending.removeValue(forKey: socket) else { continue }
                    unwatch(socket)
                    _ = sort(socket, entry, waited: true)
                }
            }
        }
        for socket in pending.keys { close(socket) }
        close(listenSocket)
    }

    @discardableResult
    private func watch(_ socket: Int32, tag: UInt64, oneShot: Bool = false) -> Bool {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (oneShot ? EPOLLONESHOT.rawValue : 0)
        event.data.u64 = tag
        return epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0
    }

    private func unwatch(_ socket: Int32) {
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}

/// A listening TCP socket on `address`, non-blocking and close-on-exec, or nil (errno says why).
/// As libmicrohttpd makes its own: `SO_REUSEADDR`, IPv6 only for an IPv6 address.
func openListeningSocket(_ address: SocketAddress) -> Int32? {
    let family = address.isIPv6 ? AF_INET6 : AF_INET
    let socket = rp_stream_socket(family)
    guard socket >= 0 else { return nil }
    var one: Int32 = 1
    _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    if address.isIPv6 { _ = setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
    let bound = address.withSockaddr { bind(socket, $0, address.length) } == 0
    guard bound, listen(socket, SOMAXCONN) == 0 else {
        let error = errno
        close(socket)
        errno = error
        return nil
    }
    return socket
}

/// The port `socket` is bound to, or 0.
func localPort(of socket: Int32) -> UInt16 {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let ok = withUnsafeMutablePointer(to: &storage) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) == 0 }
    }
    guard ok else { return 0 }
    switch Int32(storage.ss_family) {
    case AF_INET: return withUnsafeBytes(of: storage) { UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port) }
    case AF_INET6: return withUnsafeBytes(of: storage) { UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port) }
    default: return 0
    }
}
