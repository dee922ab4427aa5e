extension Signal {
    /// Sends this signal's events, then, once it completes, `other`'s (RAC `concat:`).
    @inlinable
    public func concat(_ other: Signal) -> Signal {
        Signal { subscriber in
            // The first subscriber is in place before subscribing, so a signal that completes
            // synchronously hands over to `other` without the assignment undoing it.
            let current = SerialDisposable()
            let first = Subscriber<Value, Failure> { event in
                if case .completed = event {
                    if !subscriber.isStopped {
                        let follower = subscriber.forwarder
                        current.inner = follower  // held before it runs: a synchronous signal sees the stop
                        other.subscribe(follower)
                    }
                } else {
                    subscriber.send(event)
                }
            }
            current.inner = first
            subscriber.add(current)  // before the source runs: a synchronous one sees the stop
            subscribe(first)
            return nil
        }
    }

    /// Sends each signal's events in turn, each starting when the one before completes (RAC `+concat:`).
    @inlinable
    public static func concat(_ signals: [Signal]) -> Signal {
        guard let first = signals.first else { return .empty }
        return signals.dropFirst().reduce(first) { $0.concat($1) }
    }
}
