extension Signal where Value == Duration, Failure == Never {
    /// Sends the scheduler's time every `interval`, starting one interval after subscription, until
    /// disposed (RAC `+interval:onScheduler:`, which sends the current date).
    public static func interval(_ interval: Duration, on scheduler: any Scheduler) -> Signal {
        Signal { subscriber in
            scheduler.schedule(after: interval, repeatingEvery: interval) {
                subscriber.sendNext(scheduler.now)
            }
        }
    }
}
