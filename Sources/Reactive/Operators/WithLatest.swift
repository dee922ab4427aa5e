extension Signal {
    /// Pairs each value with `other`'s latest value; values that come before `other`'s first are
    /// dropped. Completes when this signal completes (not when `other` does); fails when either
    /// fails. Not an operator of RAC 2, which writes it with `combineLatest:` and `sample:`; it is
    /// RxSwift's `withLatestFrom`, here because a form that keeps the trigger's value is the natural
    /// way to read several fields at the moment of a submit.
    public func withLatest<Other: Sendable>(from other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal<(Value, Other), Failure> { subscriber in
            let serializer = Serializer(Other?.none, subscriber)
            let subscriptions = CompoundDisposable()
            subscriber.add(subscriptions)  // before the inputs run: a synchronous one sees the stop
            let latest = Subscriber<Other, Failure> { event in
                serializer.update { latest, outbox in
                    switch event {
                    case .next(let value): latest = value
                    case .error(let error): outbox.append(.error(error))
                    case .completed: break
                    }
                }
            }
            subscriptions.add(latest)
            other.subscribe(latest)
            if subscriber.isStopped { return nil }
            let source = Subscriber<Value, Failure> { event in
                serializer.update { latest, outbox in
                    switch event {
                    case .next(let value): if let latest { outbox.append(.next((value, latest))) }
                    case .error(let error): outbox.append(.error(error))
                    case .completed: outbox.append(.completed)
                    }
                }
            }
            subscriptions.add(source)
            subscribe(source)
            return nil
        }
    }
}
