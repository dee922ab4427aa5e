import Locking
import Reactive

/// Signals of a program's values: the helpers its operators are built with.
extension Signal where Value == Pipelines.Value, Failure == PipelineFailure {
    /// The signal `make` gives for a value computed in `scopes` when it is subscribed (an argument
    /// that may read closure parameters); a failure to compute it fails the signal.
    static func using(
        _ compute: @escaping @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Pipelines.Value,
        in scopes: [Evaluator.Scope],
        _ make: @escaping @Sendable (Pipelines.Value) -> Signal
    ) -> Signal {
        .deferred {
            do throws(PipelineFailure) {
                return make(try compute(scopes))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `filter` with a test that may fail: the failure ends the stream.
    func filtering(_ test: @escaping @Sendable (Pipelines.Value) throws(PipelineFailure) -> Bool) -> Signal {
        attemptMap { value throws(PipelineFailure) in try test(value) ? value : nil }
            .filter { $0 != nil }.map { $0! }
    }

    /// `collect()`: every value, sent as one array when the signal completes (RAC `collect`). The
    /// array grows in place, its size in bytes kept as it grows: past ``Evaluator/maximumArrayCount``
    /// values or `limit` bytes the stream fails, before the array is made.
    func collecting(upTo limit: Int, at range: SourceRange) -> Signal {
        Signal { subscriber in
            let collected = Lock<(values: [Pipelines.Value], bytes: Int)>(([], 2))
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        let failure = collected.withLock { collected -> PipelineFailure? in
                            guard collected.values.count < Evaluator.maximumArrayCount else {
                                return .closure("`collect` keeps at most \(Evaluator.maximumArrayCount) values", at: range)
                            }
                            let separator = collected.values.isEmpty ? 0 : 1
                            guard let size = value.encodedSize(limit: limit - collected.bytes - separator) else {
                                return .valueTooLarge("the array `collect` makes", limit: limit, at: range)
                            }
                            collected.bytes += size + separator
                            collected.values.append(value)
                            return nil
                        }
                        if let failure { subscriber.send(.error(failure)) }
                    case .completed:
                        let values = collected.withLock { collected in
                            defer { collected.values = [] }
                            return collected.values
                        }
                        subscriber.send(.next(.array(values)))
                        subscriber.send(.completed)
                    case .error:
                        subscriber.send(event)
                    }
                },
                for: subscriber
            )
        }
    }

    /// `scan` with a combination that may fail: the failure ends the stream.
    func scanning(
        _ seed: Pipelines.Value,
        _ combine: @escaping @Sendable (Pipelines.Value, Pipelines.Value) throws(PipelineFailure) -> Pipelines.Value
    ) -> Signal {
        scan(Result<Pipelines.Value, PipelineFailure>.success(seed)) { total, value in
            total.flatMap { total in Result { () throws(PipelineFailure) in try combine(total, value) } }
        }.attemptMap { result throws(PipelineFailure) in try result.get() }
    }
}
