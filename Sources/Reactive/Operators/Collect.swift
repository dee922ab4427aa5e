import Locking

extension Signal {
    /// Sends one array of every value when this signal completes (RAC `collect`).
    public func collect() -> Signal<[Value], Failure> {
        Signal<[Value], Failure> { subscriber in
            let values = Lock<[Value]>([])
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): values.withLock { $0.append(value) }
                    case .error(let error): subscriber.sendError(error)
                    case .completed:
                        subscriber.sendNext(values.withLock { $0 })
                        subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
