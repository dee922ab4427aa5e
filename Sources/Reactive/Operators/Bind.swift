extension Signal {
    /// RAC's primitive `bind:`, which `flattenMap:` is built on: `makeBinder` runs once per
    /// subscription and gives a closure that turns each value into a signal to merge in, or `nil`
    /// to stop. Setting the closure's `stop` argument to `true` also stops: this signal is then
    /// disposed, and the result completes once every signal merged in so far has completed.
    /// An error from this signal or any merged signal ends the result.
    public func bind<NewValue: Sendable>(
        _ makeBinder: @escaping @Sendable () -> @Sendable (Value, inout Bool) -> Signal<NewValue, Failure>?
    ) -> Signal<NewValue, Failure> {
        Signal<Signal<NewValue, Failure>, Failure> { subscriber in
            let binder = makeBinder()
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        var stop = false
                        let signal = binder(value, &stop)
                        if let signal { subscriber.sendNext(signal) }
                        if signal == nil || stop { subscriber.sendCompleted() }
                    case .error(let error): subscriber.sendError(error)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }.flatten(.merge)
    }
}
