import Locking

extension Signal {
    /// Sends `combine(previous, current)` for each value, where `previous` is the value before it —
    /// `initial` for the first (RAC `combinePreviousWithStart:reduce:`).
    public func combinePrevious<Result: Sendable>(
        _ initial: Value,
        _ combine: @escaping @Sendable (Value, Value) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { subscriber in
            let previous = Lock(initial)
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        // Swapped under the lock; `combine` runs outside it (it may send into the source).
                        let before = previous.withLock { previous -> Value in
                            defer { previous = value }
                            return previous
                        }
                        subscriber.sendNext(combine(before, value))
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
