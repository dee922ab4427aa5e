extension Signal {
    /// Transforms every value with `transform` (RAC `map:`).
    @inlinable
    public func map<NewValue: Sendable>(
        _ transform: @escaping @Sendable (Value) -> NewValue
    ) -> Signal<NewValue, Failure> {
        if let loop {
            // A synchronous sequence: the stage joins its loop (``Signal/loop``).
            return Signal<NewValue, Failure>(loop: { stop, sink in
                loop(stop) { value in
                    let transformed = transform(value)
                    if !stop.isStopped { sink(transformed) }
                }
            })
        }
        return Signal<NewValue, Failure> { subscriber in
            // A `next` closure, not one closure switching over events: it receives the value where
            // the subscriber stored it and hands that address to `transform`. Copied out of an
            // event, a two-word value (a `combineLatest` pair) was loaded in one 16-byte read
            // from two 8-byte writes just made, which the CPU cannot forward: a stall that was a
            // fifth of case 3's time (docs/PERFORMANCE.md).
            subscribe(
                Subscriber(
                    next: { subscriber.forwardNext(transform($0)) },
                    error: { subscriber.sendError($0) },
                    completed: { subscriber.sendCompleted() }
                ),
                for: subscriber
            )
        }
    }
}
