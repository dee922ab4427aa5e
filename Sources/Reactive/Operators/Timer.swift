extension Signal where Value == Duration, Failure == Never {
    /// Sends the scheduler's time once, `delay` after subscription, then completes (Rx `timer`).
    public static func timer(after delay: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            scheduler.schedule(after: delay) {
                subscriber.sendNext(scheduler.now)
                subscriber.sendCompleted()
            }
        }
    }
}
