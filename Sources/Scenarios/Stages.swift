import Locking
import Reactive

/// Builds a scenario's pipeline stage by stage, making each stage a named stream, cold as RAC's
/// signals are.
///
/// Each subscription to a stage is reported to the sink under the stage's name: `subscribed`, the
/// events it delivers, `disposed`. Nothing is shared behind the scenario's back: a stage read by
/// two later stages is subscribed twice and runs its work twice, as in RAC, so a scenario that
/// means to share writes it, as RAC code does (`publish()` with `autoconnect()`, or a connection
/// it connects with ``connect(_:)``).
///
/// A stage is read by later stages (``stream(_:_:)``: they subscribe to it, and it runs only
/// while they do), or watched (``watch(_:_:)``: the session subscribes to it at once, as RAC code
/// binds a signal to a view; later stages may read it too, each subscribing again) — the rule a
/// program's named streams follow, written out.
final class Stages: Sendable {
    private let sink: StreamSink
    /// Every subscription to a stage, whoever made it (a command subscribes to its `enabled`
    /// stage), so that ``stop()`` ends them all.
    private let subscriptions = CompoundDisposable()
    /// The next subscription's id.
    private let ids = Lock(1)

    init(sink: @escaping StreamSink) {
        self.sink = sink
    }

    /// Makes `signal` the named stream `name`, for later stages to read: cold, each subscription
    /// reported with an id of its own.
    func stream<Value: JSONRepresentable, Failure: Error>(_ name: String, _ signal: Signal<Value, Failure>) -> Signal<Value, Failure> {
        reporting(signal, as: name) { $0.jsonValue }
    }

    /// `signal`, a source inside a stream (a service call), each subscription reported under
    /// `name` (`results·search`, as a program names it): its start, how it ended and its end, not
    /// its values, which the stream's rows carry. So a search cancelled by a newer query shows as
    /// a subscription disposed before its answer.
    func source<Value: Sendable, Failure: Error>(_ name: String, _ signal: Signal<Value, Failure>) -> Signal<Value, Failure> {
        reporting(signal, as: name, value: nil)
    }

    /// `signal`, each subscription reported under `name`; its values as `value` makes them (none
    /// without it).
    private func reporting<Value: Sendable, Failure: Error>(
        _ signal: Signal<Value, Failure>,
        as name: String,
        value: (@Sendable (Value) -> JSONValue)?
    ) -> Signal<Value, Failure> {
        let (sink, ids, subscriptions) = (self.sink, self.ids, self.subscriptions)
        return Signal { subscriber in
            let id = ids.withLock { id in
                defer { id += 1 }
                return id
            }
            Inspection.label(subscriber, .subscription(signal: name, id: id))
            sink(name, .subscribed(id))
            subscriptions.add(subscriber)
            // The probe's own objects, labelled so: RAC's subscription would have neither.
            let ending = ActionDisposable { [weak subscriber] in
                if let subscriber { subscriptions.remove(subscriber) }
                sink(name, .disposed(id))
            }
            Inspection.label(ending, .probe(signal: name, id: id))
            subscriber.add(ending)
            let forwarder = Subscriber<Value, Failure> { event in
                if let reported = Self.streamEvent(event, value: value) { sink(name, .event(reported, subscription: id)) }
                subscriber.send(event)
            }
            Inspection.label(forwarder, .probe(signal: name, id: id))
            return signal.subscribe(forwarder, for: subscriber)
        }
    }

    /// Makes `signal` the named stream `name` and subscribes to it now, for the pipeline's life,
    /// as RAC code binds a signal to a view (`RAC(view, property) = signal`): a stream the learner
    /// watches. Returns it for later stages, each of which subscribes to it again.
    @discardableResult
    func watch<Value: JSONRepresentable, Failure: Error>(_ name: String, _ signal: Signal<Value, Failure>) -> Signal<Value, Failure> {
        let stream = stream(name, signal)
        subscriptions.add(stream.subscribe(Subscriber { _ in }))
        return stream
    }

    /// Connects `connection` for the pipeline's life (RAC `-connect`) and returns its signal:
    /// every reader shares its one subscription upstream. With a replay subject of capacity 1 it is
    /// RAC's `replayLast`, disposed with the pipeline.
    func connect<Value: Sendable, Failure: Error>(_ connection: MulticastConnection<Value, Failure>) -> Signal<Value, Failure> {
        subscriptions.add(connection.connect())
        return connection.signal
    }

    /// Ties `disposable` to the pipeline's life.
    func add(_ disposable: any Disposable) {
        subscriptions.add(disposable)
    }

    /// Disposes every subscription to every stage (each reports its `disposed`), and what was tied
    /// to the pipeline's life.
    func stop() {
        subscriptions.dispose()
    }

    /// `event` as reported: a value only with `value`.
    private static func streamEvent<Value: Sendable, Failure: Error>(
        _ event: Event<Value, Failure>,
        value: (@Sendable (Value) -> JSONValue)?
    ) -> StreamEvent? {
        switch event {
        case .next(let next): value.map { .next($0(next)) }
        case .error(let error as ErrorInfo): .error(error)
        case .error(let error as ServiceError): .error(ErrorInfo(code: error.code, message: error.message))
        case .error(let error): .error(ErrorInfo(code: "stream_failed", message: String(describing: error)))
        case .completed: .completed
        }
    }
}
