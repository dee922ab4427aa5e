/// The error of a signal that did not complete in time (RAC `RACSignalErrorTimedOut`).
public struct TimeoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The time that was allowed.
    public let interval: Duration

    /// Creates the error for `interval`.
    public init(interval: Duration) {
        self.interval = interval
    }

    /// A description for people and logs.
    public var description: String { "timed out after \(interval)" }
}

extension Signal {
    /// Fails with `error` unless this signal completes (or fails) within `interval` of
    /// subscription, measured on `scheduler` (RAC `timeout:onScheduler:`).
    public func timeout(after interval: Duration, raising error: Failure, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            let timer = scheduler.schedule(after: interval) { subscriber.sendError(error) }
            subscriber.add(timer)
            if subscriber.isStopped { return nil }
            return subscribe(subscriber.forwarder, for: subscriber)
        }
    }
}

extension Signal where Failure == Never {
    /// Fails with ``TimeoutError`` unless this signal completes within `interval` (RAC `timeout:onScheduler:`).
    public func timeout(after interval: Duration, on scheduler: any Scheduler) -> Signal<Value, TimeoutError> {
        promoteError(TimeoutError.self).timeout(after: interval, raising: TimeoutError(interval: interval), on: scheduler)
    }
}
