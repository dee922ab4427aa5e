extension Signal {
    /// Sends this signal's latest value each time `sampler` sends a value — again if no newer one
    /// came — and nothing before this signal's first value. Completes when either completes; fails
    /// when either fails (RAC `sample:`).
    public func sample<Trigger: Sendable>(_ sampler: Signal<Trigger, Failure>) -> Signal {
        Signal { subscriber in
            let serializer = Serializer(Value?.none, subscriber)
            let subscriptions = CompoundDisposable()
            subscriber.add(subscriptions)  // before the inputs run: a synchronous one sees the stop
            let source = Subscriber<Value, Failure> { event in
                serializer.update { latest, outbox in
                    if case .next(let value) = event { latest = value } else { outbox.append(event) }
                }
            }
            subscriptions.add(source)
            subscribe(source)
            if subscriber.isStopped { return nil }
            let trigger = Subscriber<Trigger, Failure> { event in
                serializer.update { latest, outbox in
                    switch event {
                    case .next: if let latest { outbox.append(.next(latest)) }
                    case .error(let error): outbox.append(.error(error))
                    case .completed: outbox.append(.completed)
                    }
                }
            }
            subscriptions.add(trigger)
            sampler.subscribe(trigger)
            return nil
        }
    }
}
