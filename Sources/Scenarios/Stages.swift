import Reactive

/// Builds a scenario's pipeline stage by stage, making each stage a named stream.
///
/// ``stream(_:_:)`` subscribes a stage once, reports its events to the sink under the stage's name,
/// and returns a hot signal of them for the stages built after it (through a replay-last subject,
/// so a stage built later starts from the current value). Every stage runs once, however many
/// stages read it — a simulated service is called once per query, not once per reader.
final class Stages: Sendable {
    private let sink: StreamSink
    private let subscriptions = CompoundDisposable()

    init(sink: @escaping StreamSink) {
        self.sink = sink
    }

    /// Makes `signal` the named stream `name` and returns it for later stages.
    @discardableResult
    func stream<Value: JSONRepresentable, Failure: Error>(_ name: String, _ signal: Signal<Value, Failure>) -> Signal<Value, Failure> {
        let sink = self.sink
        return share(signal.named(name)) { event in
            switch event {
            case .next(let value): sink(name, .next(value.jsonValue))
            case .error(let error as ErrorInfo): sink(name, .error(code: error.code, message: error.message))
            case .error(let error): sink(name, .error(code: "stream_failed", message: String(describing: error)))
            case .completed: sink(name, .completed)
            }
        }
    }

    /// Subscribes `signal` once and returns a hot signal of it for later stages, without naming it.
    func share<Value: Sendable, Failure: Error>(
        _ signal: Signal<Value, Failure>,
        report: @escaping @Sendable (Event<Value, Failure>) -> Void = { _ in }
    ) -> Signal<Value, Failure> {
        let subject = ReplaySubject<Value, Failure>(capacity: 1)
        subscriptions.add(
            signal.subscribe(
                Subscriber { event in
                    report(event)
                    subject.send(event)
                }
            )
        )
        return subject.signal
    }

    /// Ties `disposable` to the pipeline's life.
    func add(_ disposable: any Disposable) {
        subscriptions.add(disposable)
    }

    /// Disposes every stage.
    func stop() {
        subscriptions.dispose()
    }
}
