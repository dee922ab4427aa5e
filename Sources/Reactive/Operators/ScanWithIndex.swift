import Locking

extension Signal {
    /// Sends each running total, as ``scan(_:_:)`` does, passing `combine` the index of each value
    /// too: 0 for the first (RAC `scanWithStart:reduceWithIndex:`).
    public func scan<Result: Sendable>(
        _ initial: Result,
        withIndex combine: @escaping @Sendable (Result, Value, Int) -> Result
    ) -> Signal<Result, Failure> {
        Signal<Result, Failure> { subscriber in
            let state = Lock((total: initial, index: 0))
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        // `combine` runs outside the lock (it may send into this signal's source).
                        let (total, index) = state.withLock { state -> (Result, Int) in
                            defer { state.index += 1 }
                            return (state.total, state.index)
                        }
                        let next = combine(total, value, index)
                        state.withLock { $0.total = next }
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
