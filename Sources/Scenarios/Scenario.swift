import Reactive

/// An event of a named stream, in the form it leaves the scenario.
public enum StreamEvent: Sendable, Equatable {
    /// A value.
    case next(JSONValue)
    /// The stream failed and ended.
    case error(code: String, message: String)
    /// The stream completed.
    case completed

    /// The event's kind as the SSE contract spells it: `next`, `error` or `completed`.
    public var kind: String {
        switch self {
        case .next: "next"
        case .error: "error"
        case .completed: "completed"
        }
    }
}

/// Receives every event of every named stream of a running scenario, as it happens.
public typealias StreamSink = @Sendable (_ stream: String, _ event: StreamEvent) -> Void

/// Tunable timings. Defaults are the seeds'; tests and flags may shorten them.
public struct ScenarioSettings: Sendable {
    /// The ticker's period.
    public var tickInterval: Duration = .seconds(1)

    /// The default settings.
    public init() {}
}

/// A running instance of a scenario: a view model whose every pipeline stage is a named stream.
public protocol Scenario: Sendable {
    /// The catalogue entry.
    static var description: ScenarioDescription { get }

    /// Creates an instance whose time-based work runs on `scheduler`.
    init(scheduler: any Scheduler, settings: ScenarioSettings)

    /// Subscribes the pipeline, sending each named stream's events to `sink`, until disposed.
    func start(sink: @escaping StreamSink) -> any Disposable
}

extension Signal where Value: JSONRepresentable {
    /// Passes every event through unchanged, also reporting it to `sink` as the stream `name`:
    /// how a pipeline stage becomes a named, watchable stream.
    public func stage(_ name: String, to sink: @escaping StreamSink) -> Signal {
        Signal { subscriber in
            subscribe(Subscriber { event in
                switch event {
                case .next(let value): sink(name, .next(value.jsonValue))
                case .error(let error): sink(name, .error(code: "stream_failed", message: String(describing: error)))
                case .completed: sink(name, .completed)
                }
                subscriber.send(event)
            })
        }
    }
}
