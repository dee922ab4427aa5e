extension Signal {
    /// Sends values while `predicate` holds; completes at the first value for which it does not
    /// (RAC `takeWhileBlock:`).
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal {
        Signal { subscriber in
            subscribe(
                Subscriber { event in
                    if case .next(let value) = event, !predicate(value) {
                        subscriber.sendCompleted()
                    } else {
                        subscriber.send(event)
                    }
                },
                for: subscriber
            )
        }
    }
}
