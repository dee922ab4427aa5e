extension Signal {
    /// Reports every event to `log` as a line naming this signal, then passes it on unchanged
    /// (RAC `logAll`, `logNext`, ...). Defaults to printing to standard output.
    public func logEvents(
        _ name: String,
        to log: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> Signal {
        Signal { subscriber in
            log("\(name): subscribed")
            let upstream = subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): log("\(name): next \(value)")
                    case .error(let error): log("\(name): error \(error)")
                    case .completed: log("\(name): completed")
                    }
                    subscriber.send(event)
                }
            )
            return ActionDisposable {
                upstream.dispose()
                log("\(name): disposed")
            }
        }
    }
}
