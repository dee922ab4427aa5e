import Locking

extension Signal {
    /// Sends each running total: `combine` applied to the previous total (starting with `initial`)
    /// and each value (RAC `scanWithStart:reduce:`).
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ combine: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { subscriber in
            // Events to one subscriber are serial, so the lock is uncontended; it makes the state
            // Sendable.
            let total = Lock(initial)
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        // `combine` runs outside the lock: it may send into this signal's source, and
                        // that nested event comes back here on the same thread.
                        let next = combine(total.withLock { $0 }, value)
                        total.withLock { $0 = next }
                        subscriber.sendNext(next)
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
