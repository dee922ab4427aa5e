extension Signal {
    /// Sends this signal's values and errors until `replacement` sends any event; from then on only
    /// `replacement`'s events, and this signal is disposed. This signal's completion is ignored:
    /// the result ends when `replacement` does (RAC `takeUntilReplacement:`).
    public func take(untilReplacement replacement: Signal) -> Signal {
        Signal { subscriber in
            let source = SerialDisposable()
            subscriber.add(source)
            let follower = Subscriber<Value, Failure> { event in
                source.dispose()
                subscriber.send(event)
            }
            subscriber.add(follower)
            replacement.subscribe(follower)
            if source.isDisposed || subscriber.isStopped { return nil }
            let upstream = Subscriber<Value, Failure> { event in
                if case .completed = event { return }
                subscriber.send(event)
            }
            source.inner = upstream
            subscribe(upstream)
            return nil
        }
    }
}
