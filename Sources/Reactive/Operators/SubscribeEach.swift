extension Signal {
    /// Subscribes to each of `signals` in turn (stopping early if `downstream` stops), passing each
    /// event to `handle` with the index of the signal that sent it: how every operator with several
    /// inputs (combineLatest, zip, merge) feeds its serializer. The disposable ends every input.
    @inlinable
    static func subscribeEach<Downstream: Sendable, DownstreamFailure: Error>(
        _ signals: [Signal],
        stoppingWith downstream: Subscriber<Downstream, DownstreamFailure>,
        _ handle: @escaping @Sendable (Int, Event<Value, Failure>) -> Void
    ) -> CompoundDisposable {
        let subscriptions = CompoundDisposable()
        // Held by `downstream` before any input runs, and each input's subscriber added before it
        // is subscribed: when `downstream` stops, even a synchronous input sees it stop at once.
        downstream.add(subscriptions)
        for (index, signal) in signals.enumerated() {
            if downstream.isStopped { break }
            let input = Subscriber<Value, Failure> { event in handle(index, event) }
            subscriptions.add(input)
            signal.subscribe(input)
        }
        return subscriptions
    }
}
