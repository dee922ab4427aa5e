import Reactive

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an event happened: the sequence numbers of the input events at the root of the propagation
/// that sent it (`causes` in the API).
///
/// Tracked here, in the session and its scheduler, and not in the `Reactive` core, whose hot paths
/// do not pay for it. A session's work runs one item at a time on its thread, so "the causes of the
/// work running now" is a thread-local value:
/// - applying an input sets it to the input event's number for the whole synchronous propagation;
/// - ``CausalScheduler`` captures it when work is scheduled (a throttle's timer, a service's answer,
///   a delay) and sets it again while that work runs, so what it sends later keeps the causes;
/// - work that no input started (the ticker's timer) runs with `[]`.
///
/// Work on schedulers a scenario makes itself (the schedulers scenario's queue and run-loop threads)
/// is not wrapped: its events carry `[]`.
enum Causes {
    /// The causes of the work running on this thread (`[]` outside a session's work).
    static var current: [Int] {
        box()?.causes ?? []
    }

    /// Runs `work` with `causes` as the current causes of this thread, then restores the previous ones.
    static func with<Result>(_ causes: [Int], _ work: () throws -> Result) rethrows -> Result {
        let box = box(creating: true)!
        let previous = box.causes
        box.causes = causes
        defer { box.causes = previous }
        return try work()
    }

    private final class Box {
        var causes: [Int] = []
    }

    /// One key for every thread; each thread's box is released when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<Box>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        return key
    }()

    private static func box(creating: Bool = false) -> Box? {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue()
        }
        guard creating else { return nil }
        let box = Box()
        pthread_setspecific(key, Unmanaged.passRetained(box).toOpaque())
        return box
    }
}

/// A session's clock scheduler that carries ``Causes`` from where work is scheduled to where it runs.
final class CausalScheduler: Scheduler {
    private let base: any Scheduler

    init(_ base: any Scheduler) {
        self.base = base
    }

    var now: Duration { base.now }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let causes = Causes.current
        return base.schedule { Causes.with(causes, action) }
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let causes = Causes.current
        return base.schedule(after: delay) { Causes.with(causes, action) }
    }
}
