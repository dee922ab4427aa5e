import Locking

extension Signal {
    /// Sends this signal's events, then, once it completes, `other`'s (RAC `concat:`).
    @inlinable
    public func concat(_ other: Signal) -> Signal {
        .concat([self, other])
    }

    /// Sends each signal's events in turn, each starting when the one before completes (RAC
    /// `+concat:`). Signals that complete synchronously are subscribed one after another in a loop:
    /// RAC folds `+concat:` into a chain of `concat:`, which subscribes one stack frame deeper for
    /// each signal, so thousands of them overflow the stack.
    @inlinable
    public static func concat(_ signals: [Signal]) -> Signal {
        Signal { subscriber in
            let current = SerialDisposable()
            subscriber.add(current)  // before any source runs: a synchronous one sees the stop
            let nextIndex = Lock(0)
            let trampoline = Trampoline()
            @Sendable func subscribeNext() {
                trampoline.run {
                    guard !subscriber.isStopped else { return }
                    let index = nextIndex.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < signals.count else {
                        subscriber.sendCompleted()
                        return
                    }
                    let follower = Subscriber<Value, Failure> { event in
                        if case .completed = event { subscribeNext() } else { subscriber.send(event) }
                    }
                    current.inner = follower  // held before it runs: a synchronous signal sees the stop
                    signals[index].subscribe(follower)
                }
            }
            subscribeNext()
            return nil
        }
    }
}
