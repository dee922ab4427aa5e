extension Signal {
    /// Sends values until `trigger` sends a value or completes, then completes (RAC `takeUntil:`).
    /// An error of `trigger` is ignored, as in RAC.
    public func take<TriggerValue, TriggerFailure>(until trigger: Signal<TriggerValue, TriggerFailure>) -> Signal {
        Signal { subscriber in
            let triggerSubscription = trigger.subscribe(
                next: { _ in subscriber.sendCompleted() },
                completed: { subscriber.sendCompleted() }
            )
            subscriber.add(triggerSubscription)
            if subscriber.isStopped { return nil }
            return subscribe(subscriber.forwarder, for: subscriber)
        }
    }
}
