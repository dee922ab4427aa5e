import Locking

/// Runs work at once on the calling thread: RAC's `+[RACScheduler immediateScheduler]`.
///
/// It cannot wait, so delayed and repeating work is not supported: calling those is a programming
/// error and traps, as RAC's asserts do.
public final class ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    /// Wall-clock time is meaningless here; always zero.
    public var now: Duration { .zero }

    /// Runs `action` as soon as possible; the disposable cancels it if it has not run (RAC `schedule:`).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return ActionDisposable()
    }

    /// Runs `action`, and again once for each call of its `reschedule` closure, in a loop on the
    /// calling thread, so that recursion never grows the stack (RAC's immediate scheduler does the
    /// same). Returns when no run is left; a `reschedule` called after that does nothing.
    @discardableResult
    public func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Disposable {
        let remaining = Lock((count: 1, isLooping: true))
        let reschedule: @Sendable () -> Void = {
            remaining.withLock { if $0.isLooping { $0.count += 1 } }
        }
        while remaining.withLock({ state -> Bool in
            guard state.count > 0 else {
                state.isLooping = false
                return false
            }
            state.count -= 1
            return true
        }) {
            action(reschedule)
        }
        return ActionDisposable()
    }

    /// Runs `action` once `delay` has passed; the disposable cancels it (RAC `afterDelay:schedule:`).
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        preconditionFailure("ImmediateScheduler cannot schedule delayed work")
    }
}
