import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Synchronization

/// One libmicrohttpd daemon's event loop, run on a thread of its own (libmicrohttpd's "external
/// polling" with epoll): wait until the daemon's epoll descriptor is readable or its next
/// connection timeout is due, then `MHD_run`, which never blocks.
///
/// Why not libmicrohttpd's internal polling thread: in 0.9.75 (and still in 1.0.1) its epoll loop
/// fetches events 128 at a time and, when it got exactly 128, waits again *with the full timeout*
/// although the events it fetched are not handled yet. With nothing else arriving, a batch of
/// requests waited up to the 30 s connection timeout (e2e test
/// `test_requests_that_arrive_together_are_answered_at_once`: 128 keep-alive connections send while
/// the server is stopped). Here `MHD_run` waits with timeout 0, so that loop cannot block, and the
/// waiting is ours.
///
/// 0.9.75's `MHD_get_timeout` does not count a resume that arrives while `MHD_run` runs (its
/// wake-up is consumed before the connection is resumed), so ``resume(_:)`` also wakes this loop
/// through an eventfd of its own, at most once per turn.
///
/// Thread safety: libmicrohttpd's callbacks run on the loop's thread; ``resume(_:)``,
/// ``quiesce()`` and ``stop()`` may be called from any thread but the loop's own.
final class PollingLoop: Sendable {
    let daemon: DaemonHandle
    /// Whether the daemon's connections end after one reply: those the ``ConnectionSorter`` sent to
    /// a daemon with less connection memory, which a later, bigger head would not fit.
    let closesAfterOneRequest: Bool
    private let epollDescriptor: Int32
    /// Readable while a wake-up (a resume, work, or stop) is pending.
    private let wakeDescriptor: Int32
    /// Whether a wake-up has been written and not yet taken by the loop: spares a write per resume.
    private let wakePending = Atomic<Bool>(false)
    private let work = Lock(Work())
    private let finished = DispatchSemaphore(value: 0)

    private struct Work {
        var jobs: [@Sendable (OpaquePointer) -> Void] = []
        var isStopping = false
    }

    /// The longest wait between two turns when nothing is due: a safety net, not a mechanism.
    private static let longestWaitMilliseconds: Int32 = 60_000

    /// Wraps a started daemon (flags without `MHD_USE_INTERNAL_POLLING_THREAD`); call ``start(name:)``.
    init?(daemon: OpaquePointer, closesAfterOneRequest: Bool = false) {
        let epoll = rp_daemon_epoll_fd(daemon)
        let wake = rp_wake_descriptor()
        guard epoll >= 0, wake >= 0 else {
            if wake >= 0 { close(wake) }
            return nil
        }
        self.daemon = DaemonHandle(pointer: daemon)
        self.closesAfterOneRequest = closesAfterOneRequest
        epollDescriptor = epoll
        wakeDescriptor = wake
    }

    deinit { close(wakeDescriptor) }

    /// Starts the loop's thread.
    func start(name: String) {
        let thread = Thread { [self] in
            ThreadWork.setName(name)  // else `top -H` and `perf sched` show its creator's name
            run()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Resumes a suspended connection of this loop's daemon and makes sure the loop sees it.
    func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
        wake()
    }

    /// Hands an accepted socket to the daemon (`MHD_add_connection`, on the loop's thread: it is
    /// not thread-safe with external polling), or closes it if the loop is stopping.
    func add(socket: Int32, address: sockaddr_storage, length: socklen_t) {
        let queued = work.withLock { work -> Bool in
            guard !work.isStopping else { return false }
            work.jobs.append { daemon in
                var address = address
                // It closes the socket itself when it cannot take it (its connection limit).
                _ = withUnsafePointer(to: &address) { storage in
                    storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, socket, $0, length) }
                }
            }
            return true
        }
        if queued { wake() } else { close(socket) }
    }

    /// Stops accepting connections (`MHD_quiesce_daemon`, run on the loop's thread: it edits the
    /// epoll set that `MHD_run` uses) and returns the listening socket, now the caller's to close, or
    /// -1. Call before ``stop()``.
    func quiesce() -> Int32 {
        let done = DispatchSemaphore(value: 0)
        let socket = Lock<Int32>(-1)
        work.withLock {
            $0.jobs.append { daemon in
                socket.withLock { $0 = MHD_quiesce_daemon(daemon) }
                done.signal()
            }
        }
        wake()
        done.wait()
        return socket.withLock { $0 }
    }

    /// Ends the loop after the jobs already queued and waits for its thread to finish; the daemon
    /// may then be stopped from this thread. Idempotent.
    func stop() {
        let first = work.withLock { work -> Bool in
            defer { work.isStopping = true }
            return !work.isStopping
        }
        guard first else { return }
        wake()
        finished.wait()
    }

    private func wake() {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    private func run() {
        var descriptors = [
            pollfd(fd: epollDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let timeout = rp_daemon_wait_ms(daemon.pointer, Self.longestWaitMilliseconds)
            _ = poll(&descriptors, 2, timeout)  // EINTR: one more turn, no harm
            if descriptors[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
                // Cleared before MHD_run, so a resume after this point writes a new wake-up; an
                // exchange (not a store) so that a resume that found the flag set is seen by MHD_run.
                _ = wakePending.exchange(false, ordering: .acquiringAndReleasing)
                let (jobs, isStopping) = work.withLock { work in
                    defer { work.jobs = [] }
                    return (work.jobs, work.isStopping)
                }
                for job in jobs { job(daemon.pointer) }
                if isStopping { return }
            }
            _ = MHD_run(daemon.pointer)
        }
    }
}
