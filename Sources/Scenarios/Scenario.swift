import Reactive

/// An event of a named stream, in the form it leaves the scenario: its values as JSON, its
/// failure a code and a message.
public typealias StreamEvent = Event<JSONValue, ErrorInfo>

/// What a running pipeline reports of one of its named streams. A named stream is a cold signal,
/// as RAC's are: each reader subscribes to it again, so its reports come per subscription.
public typealias StageReport = SubscriptionReport<JSONValue, ErrorInfo>

/// Receives what a running scenario reports of its named streams, as it happens, on the thread
/// that delivered it (the scenario's scheduler, or another it moved work to).
public typealias StreamSink = @Sendable (_ stream: String, _ report: StageReport) -> Void

/// A value sent to one of a scenario's inputs, already checked against the input's kind.
public enum InputValue: Sendable, Equatable {
    /// For `text` inputs.
    case text(String)
    /// For `bool` inputs.
    case bool(Bool)
    /// For `number` inputs.
    case number(Double)
    /// For `choice` inputs: one of the options.
    case choice(String)
    /// For `action` inputs, which carry no value.
    case action
}

/// Tunable timings. Defaults are those of the original ReactiveCocoa examples; tests and flags may shorten them, never by default.
public struct ScenarioSettings: Sendable {
    /// The ticker's period.
    public var tickInterval: Duration = .seconds(1)
    /// RAC throttle interval of the search box (the instant-search example's 0.5 s).
    public var throttleInterval: Duration = .milliseconds(500)
    /// How long a simulated service (sign-in, search, subscribe) takes (about a second, as in the examples).
    public var serviceLatency: Duration = .seconds(1)

    /// The default settings.
    public init() {}
}

/// A running scenario: a view model built only from `Reactive`, whose every pipeline stage is a
/// named stream. It is created, fed and stopped on its scheduler's thread; its time-based work
/// runs on that scheduler, so tests drive it in virtual time and the server in real time.
public protocol Scenario: AnyObject, Sendable {
    /// The catalogue entry: inputs and streams.
    static var description: PipelineDescription { get }

    /// The inputs, each declared once with the object that receives it (the catalogue entry's
    /// inputs are made from these).
    static var inputs: [InputDeclaration<Self>] { get }

    /// Builds the pipeline and starts it: from now on every subscription to a named stream, and
    /// its events, go to `sink`.
    init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink)

    /// Sends `event` into the input `name`: a value (checked with
    /// ``PipelineDescription/value(for:from:)``), or the input's completion or error.
    func apply(_ event: InputEvent, to name: String)

    /// Stops the pipeline: every subscription is disposed and no more events are sent.
    func stop()

    /// Waits until the work this scenario handed to threads other than its scheduler's has run,
    /// so that a run on a virtual clock sees it at the instant it was handed over. Most scenarios
    /// hand none over: the default returns at once.
    func settle()
}

extension Scenario {
    /// Sends `event` to the object declared for the input `name` in ``inputs``; an unknown name is
    /// ignored (the API refuses it before).
    public func apply(_ event: InputEvent, to name: String) {
        Self.inputs.first { $0.description.name == name }?.receiver(self).send(event)
    }

    /// Nothing to wait for: the scenario's work all runs on its scheduler.
    public func settle() {}
}

/// An error with a code and a message: carried as a value by an `errors` stream
/// (`{"code": ..., "message": ...}`), and the failure type of every input, so a client can fail one.
public struct ErrorInfo: Error, Sendable, Equatable, JSONRepresentable {
    /// A snake_case code.
    public let code: String
    /// A sentence for people.
    public let message: String

    /// Creates an error value.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The value as JSON.
    public var jsonValue: JSONValue { .object(["code": .string(code), "message": .string(message)]) }
}
