/// Where and when work runs: RAC's `RACScheduler`.
///
/// Every method may be called from any thread and returns a disposable that cancels the work if it
/// has not run yet (and stops a repeating one). Work scheduled on one scheduler runs one item at a
/// time, in the order it was due.
public protocol Scheduler: AnyObject, Sendable {
    /// The scheduler's current time, measured from an origin of its own. Only differences between
    /// two readings of the same scheduler mean anything. A `TestScheduler` reports virtual time.
    var now: Duration { get }

    /// Runs `action` as soon as possible (RAC `schedule:`).
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` once `delay` has passed (RAC `afterDelay:schedule:`).
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable

    /// Runs `action` after `delay` and then every `interval` until disposed
    /// (RAC `after:repeatingEvery:withLeeway:schedule:`).
    @discardableResult
    func schedule(
        after delay: Duration,
        repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable

    /// Runs `action` as soon as possible, passing it a closure that schedules it once more
    /// (RAC `scheduleRecursiveBlock:`). Every scheduler has it; see the default implementation.
    @discardableResult
    func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Disposable
}

extension Scheduler {
    /// Runs `action` after `delay`, then every `interval`, until disposed (RAC
    /// `after:repeatingEvery:withLeeway:schedule:`), through ``schedule(after:_:)``: each firing is
    /// scheduled for its place counted from the first deadline, not from the firing before, so the
    /// period does not drift; and before `action` runs, so that work `action` schedules for the same
    /// instant comes after the next firing's place in line. An interval under a nanosecond counts as
    /// one. Every scheduler but `RunLoopScheduler`, which keeps repeating work of its own, runs
    /// repeating work so: a scheduler that wraps another's work (``NamedScheduler``) wraps each firing.
    @discardableResult
    public func schedule(
        after delay: Duration,
        repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let step = max(interval, .nanoseconds(1))
        let first = now + delay
        let serial = SerialDisposable()
        @Sendable func fire(_ count: Int) {
            guard !serial.isDisposed else { return }
            let next = first + step * (count + 1)
            serial.inner = schedule(after: max(.zero, next - now)) { fire(count + 1) }
            action()
        }
        serial.inner = schedule(after: delay) { fire(0) }
        return serial
    }
}
