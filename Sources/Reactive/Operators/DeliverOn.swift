extension Signal {
    /// Delivers every event on `scheduler`, in order (RAC `deliverOn:`). Events are not delivered
    /// after the subscription is disposed, even if already scheduled.
    public func deliver(on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            subscribe(
                Subscriber { event in
                    scheduler.schedule { subscriber.send(event) }
                },
                for: subscriber
            )
        }
    }
}
