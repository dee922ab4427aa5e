extension Signal {
    /// A signal whose `body` runs once, on `scheduler`, when the first subscriber arrives; every
    /// subscriber, then and later, receives everything `body` sends (RAC
    /// `+startLazilyWithScheduler:block:`).
    public static func startLazily(
        on scheduler: any Scheduler,
        _ body: @escaping @Sendable (Subscriber<Value, Failure>) -> Void
    ) -> Signal {
        Signal { subscriber in
            body(subscriber)
            return nil
        }.replayLazily().subscribe(on: scheduler)
    }

    /// A signal whose `body` runs once, on `scheduler`, at once; every subscriber receives
    /// everything `body` sends (RAC `+startEagerlyWithScheduler:block:`).
    public static func startEagerly(
        on scheduler: any Scheduler,
        _ body: @escaping @Sendable (Subscriber<Value, Failure>) -> Void
    ) -> Signal {
        let signal = startLazily(on: scheduler, body)
        signal.subscribe()
        return signal
    }
}
