extension Signal {
    /// Sends `value` first, then everything this signal sends (RAC `startWith:`).
    public func startWith(_ value: Value) -> Signal {
        Signal { subscriber in
            subscriber.sendNext(value)
            if subscriber.isStopped { return nil }
            return subscribe(subscriber.forwarder, for: subscriber)
        }
    }
}
