extension Signal {
    /// Subscribes to this signal on `scheduler` (RAC `subscribeOn:`): the subscribe closure, and
    /// whatever it sends synchronously, run there. Disposing before then cancels the subscription.
    public func subscribe(on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            scheduler.schedule {
                if !subscriber.isStopped { subscribe(subscriber) }
            }
        }
    }
}
