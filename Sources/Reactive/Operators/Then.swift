extension Signal {
    /// Ignores this signal's values and, once it completes, subscribes to the signal `next` makes
    /// (RAC `then:`).
    public func then<NewValue: Sendable>(_ next: @escaping @Sendable () -> Signal<NewValue, Failure>) -> Signal<NewValue, Failure> {
        Signal<NewValue, Failure> { subscriber in
            let current = SerialDisposable()
            let first = Subscriber<Value, Failure> { event in
                switch event {
                case .next: break
                case .error(let error): subscriber.sendError(error)
                case .completed:
                    if !subscriber.isStopped {
                        let follower = subscriber.forwarder
                        current.inner = follower  // held before it runs: a synchronous signal sees the stop
                        next().subscribe(follower)
                    }
                }
            }
            current.inner = first
            subscriber.add(current)  // before the source runs: a synchronous one sees the stop
            subscribe(first)
            return nil
        }
    }
}
