/// A type that is an ``Event``, so that ``Signal/dematerialize()`` can be written for signals of events.
public protocol EventProtocol<Value, Failure>: Sendable {
    /// The event's value type.
    associatedtype Value: Sendable
    /// The event's error type.
    associatedtype Failure: Error
    /// The event itself.
    var event: Event<Value, Failure> { get }
}

extension Event: EventProtocol {
    /// The event itself.
    public var event: Event<Value, Failure> { self }
}

extension Signal {
    /// Sends every event, terminal ones included, as a value, then completes (RAC `materialize`).
    public func materialize() -> Signal<Event<Value, Failure>, Never> {
        Signal<Event<Value, Failure>, Never> { subscriber in
            subscribe(
                Subscriber { event in
                    subscriber.sendNext(event)
                    if event.isTerminating { subscriber.sendCompleted() }
                },
                for: subscriber
            )
        }
    }
}

extension Signal where Value: EventProtocol, Failure == Never {
    /// Turns a signal of events back into the events themselves (RAC `dematerialize`).
    public func dematerialize() -> Signal<Value.Value, Value.Failure> {
        Signal<Value.Value, Value.Failure> { subscriber in
            subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let wrapped): subscriber.send(wrapped.event)
                    case .completed: subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
