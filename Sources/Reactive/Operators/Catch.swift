extension Signal {
    /// On an error, switches to the signal `handler` makes from it (RAC `catch:`).
    public func `catch`<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
    ) -> Signal<Value, NewFailure> {
        Signal<Value, NewFailure> { subscriber in
            let current = SerialDisposable()
            let first = Subscriber<Value, Failure> { event in
                switch event {
                case .next(let value): subscriber.sendNext(value)
                case .completed: subscriber.sendCompleted()
                case .error(let error):
                    if !subscriber.isStopped {
                        let follower = subscriber.forwarder
                        current.inner = follower  // held before it runs: a synchronous signal sees the stop
                        handler(error).subscribe(follower)
                    }
                }
            }
            current.inner = first
            subscriber.add(current)  // before the source runs: a synchronous one sees the stop
            subscribe(first)
            return nil
        }
    }

    /// On an error, switches to `replacement` (RAC `catchTo:`).
    public func catchTo<NewFailure: Error>(_ replacement: Signal<Value, NewFailure>) -> Signal<Value, NewFailure> {
        self.catch { _ in replacement }
    }
}
