extension Signal {
    /// Collects values into arrays: the first value into an empty buffer starts a timer of
    /// `interval` on `scheduler`, and when it fires the buffer is sent and emptied. On completion
    /// a non-empty buffer is sent at once, then completion; an error drops it (RAC
    /// `bufferWithTime:onScheduler:`, which sends a `RACTuple`). Empty buffers are never sent.
    ///
    /// - Precondition: `interval` is greater than zero.
    public func buffer(every interval: Duration, on scheduler: any Scheduler) -> Signal<[Value], Failure> {
        precondition(interval > .zero, "buffer(every:on:) needs an interval greater than zero, not \(interval)")
        return Signal<[Value], Failure> { subscriber in
            let serializer = Serializer([Value](), subscriber)
            let timer = SerialDisposable()
            subscriber.add(timer)
            /// Sends the buffer, if anything is in it, and empties it.
            @Sendable func flush(_ buffer: inout [Value], _ outbox: inout Outbox<[Value], Failure>) {
                guard !buffer.isEmpty else { return }
                outbox.append(.next(buffer))
                buffer = []
            }
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        let startTimer = serializer.update { buffer, _ -> Bool in
                            buffer.append(value)
                            return buffer.count == 1
                        }
                        // Only the value that found the buffer empty starts a timer, and the buffer is
                        // emptied only by that timer (or the end), so at most one is pending.
                        if startTimer {
                            timer.inner = scheduler.schedule(after: interval) {
                                serializer.update { buffer, outbox in flush(&buffer, &outbox) }
                            }
                        }
                    case .error(let error):
                        timer.dispose()
                        serializer.send(.error(error))
                    case .completed:
                        timer.dispose()
                        serializer.update { buffer, outbox in
                            flush(&buffer, &outbox)
                            outbox.append(.completed)
                        }
                    }
                },
                for: subscriber
            )
        }
    }
}
