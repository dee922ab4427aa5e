extension Signal {
    /// Runs `action` each time the signal is subscribed to, before the subscription starts
    /// (RAC `initially:`).
    public func initially(_ action: @escaping @Sendable () -> Void) -> Signal {
        .deferred {
            action()
            return self
        }
    }
}
