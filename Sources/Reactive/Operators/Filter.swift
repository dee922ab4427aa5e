extension Signal {
    /// Passes on only the values for which `isIncluded` returns true (RAC `filter:`).
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal {
        if let loop {
            // A synchronous sequence: the stage joins its loop (``Signal/loop``).
            return Signal(loop: { stop, sink in
                loop(stop) { value in
                    if isIncluded(value) && !stop.isStopped { sink(value) }
                }
            })
        }
        return Signal { subscriber in
            subscribe(
                // Separate closures, as `map`'s and for the same reason: no copy of the value.
                Subscriber(
                    next: { if isIncluded($0) { subscriber.forwardNext($0) } },
                    error: { subscriber.sendError($0) },
                    completed: { subscriber.sendCompleted() }
                ),
                for: subscriber
            )
        }
    }
}
