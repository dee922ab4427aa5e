import Dispatch

/// A scheduler on a serial Dispatch queue: RAC's `RACQueueScheduler` (`+schedulerWithPriority:`).
public final class QueueScheduler: Scheduler {
    /// The serial queue the work runs on.
    public let queue: DispatchQueue

    /// Marks the queue, so that work can ask whether it runs on it.
    private let marker = DispatchSpecificKey<Bool>()

    /// Creates a scheduler on a new serial queue labelled `label`.
    public convenience init(label: String = "reactive.queue-scheduler", qos: DispatchQoS = .default) {
        self.init(queue: DispatchQueue(label: label, qos: qos))
    }

    /// Creates a scheduler on a new serial queue whose work runs on `target` — which may be
    /// concurrent: the scheduler still runs one piece of work at a time, in order (RAC's
    /// `RACTargetQueueScheduler`, `-initWithName:targetQueue:`).
    public convenience init(label: String = "reactive.queue-scheduler", targeting target: DispatchQueue) {
        self.init(queue: DispatchQueue(label: label, target: target))
    }

    /// Creates a scheduler on an existing serial `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
        queue.setSpecific(key: marker, value: true)
    }

    /// Whether the caller runs on this scheduler's queue (RAC `+[RACScheduler currentScheduler]`
    /// compared with this one).
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// The time since boot, from the monotonic clock.
    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds) }

    /// Runs `action` as soon as possible; the disposable cancels it if it has not run (RAC `schedule:`).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let disposable = ActionDisposable()
        let action = Inspection.carrying(action)
        queue.async {
            if !disposable.isDisposed { action() }
        }
        return disposable
    }

    /// Runs `action` once `delay` has passed; the disposable cancels it (RAC `afterDelay:schedule:`).
    /// Work already due (a delay of zero or less, as a late repeating firing's) is queued as
    /// ``schedule(_:)`` queues it, with no timer: in the same order, without a timer to arm for an
    /// instant that has passed.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        guard delay > .zero else { return schedule(action) }
        let disposable = ActionDisposable()
        let action = Inspection.carrying(action)
        queue.asyncAfter(deadline: .now() + delay.timeInterval) {
            if !disposable.isDisposed { action() }
        }
        return disposable
    }
}

extension Duration {
    /// The duration in seconds, as Dispatch and Foundation take it.
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
