extension Signal {
    /// Sends `true` and completes at the first value passing `predicate`; sends `false` when this
    /// signal completes without one (RAC `any:`). Errors pass through.
    public func any(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        Signal<Bool, Failure> { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        guard predicate(value) else { return }
                        subscriber.sendNext(true)
                        subscriber.sendCompleted()
                    case .error(let error): subscriber.sendError(error)
                    case .completed:
                        subscriber.sendNext(false)
                        subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }

    /// Sends `true` and completes at the first value; `false` if this signal completes without
    /// one (RAC `any`).
    public func any() -> Signal<Bool, Failure> {
        any { _ in true }
    }

    /// Sends `false` and completes at the first value failing `predicate`; sends `true` when this
    /// signal completes without one — also when it sent nothing (RAC `all:`). Errors pass through.
    public func all(_ predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Bool, Failure> {
        any { !predicate($0) }.map { !$0 }
    }
}
