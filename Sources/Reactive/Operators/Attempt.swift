extension Signal {
    /// Sends each value that `body` accepts; fails with the error `body` throws, at the first value
    /// it rejects (RAC `try:`, whose block returns NO and sets an error).
    public func attempt(_ body: @escaping @Sendable (Value) throws(Failure) -> Void) -> Signal {
        attemptMap { value throws(Failure) in
            try body(value)
            return value
        }
    }

    /// Sends `transform(value)` for each value; fails with the error `transform` throws, at the
    /// first value it throws for (RAC `tryMap:`).
    public func attemptMap<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
    ) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure> { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        do throws(Failure) {
                            subscriber.sendNext(try transform(value))
                        } catch {
                            subscriber.sendError(error)
                        }
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }

    /// A signal that runs `body` for each subscription and sends its result, then completes — or
    /// fails with the error it throws (RAC `+try:`).
    public static func attempt(_ body: @escaping @Sendable () throws(Failure) -> Value) -> Signal {
        Signal { subscriber in
            do throws(Failure) {
                subscriber.sendNext(try body())
                subscriber.sendCompleted()
            } catch {
                subscriber.sendError(error)
            }
            return nil
        }
    }
}
