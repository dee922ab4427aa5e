extension Signal {
    /// Sends each value and the completion `interval` later, on `scheduler`; an error is sent at
    /// once (RAC `delay:`).
    public func delay(_ interval: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            let serializer = Serializer((), subscriber)
            let timers = CompoundDisposable()
            subscriber.add(timers)
            let upstream = Subscriber<Value, Failure> { event in
                if case .error = event {
                    timers.dispose()
                    serializer.send(event)
                    return
                }
                let slot = SerialDisposable()
                timers.add(slot)
                slot.inner = scheduler.schedule(after: interval) {
                    timers.remove(slot)
                    serializer.send(event)
                }
            }
            return subscribe(upstream, for: subscriber)
        }
    }
}
