/// Runs work at once on the calling thread: RAC's `+[RACScheduler immediateScheduler]`.
///
/// It cannot wait, so delayed and repeating work is not supported: calling those is a programming
/// error and traps, as RAC's asserts do.
public final class ImmediateScheduler: Scheduler {
    /// Creates an immediate scheduler.
    public init() {}

    /// Wall-clock time is meaningless here; always zero.
    public var now: Duration { .zero }

    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        action()
        return ActionDisposable()
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        preconditionFailure("ImmediateScheduler cannot schedule delayed work")
    }

    @discardableResult
    public func schedule(
        after delay: Duration,
        repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        preconditionFailure("ImmediateScheduler cannot schedule repeating work")
    }
}
