extension Signal {
    /// `flatten(.merge)`: every inner signal at once (RAC `flatten` / `flattenMap:`).
    func mergeInner<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(1, subscriber)  // active signals: the outer one, then each inner
            let inners = CompoundDisposable()
            subscriber.add(inners)
            @Sendable func finishOne(_ active: inout Int, _ outbox: inout [Event<Inner, Failure>]) {
                active -= 1
                if active == 0 { outbox.append(.completed) }
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    serializer.update { active, _ in active += 1 }
                    // Each inner subscription leaves the compound disposable when it ends, so a
                    // long-lived merge does not accumulate finished subscriptions.
                    let slot = SerialDisposable()
                    let forwarding = Subscriber<Inner, Failure> { innerEvent in
                        if innerEvent.isTerminating { inners.remove(slot) }
                        serializer.update { active, outbox in
                            if case .completed = innerEvent { finishOne(&active, &outbox) } else { outbox.append(innerEvent) }
                        }
                    }
                    slot.inner = forwarding
                    inners.add(slot)
                    innerSignal.subscribe(forwarding)
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { active, outbox in finishOne(&active, &outbox) }
                }
            }
            return subscribe(outer, for: subscriber)
        }
    }
}
