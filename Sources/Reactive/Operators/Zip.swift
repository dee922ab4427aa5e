extension Signal {
    /// Pairs values by position: the first of every signal, then the second of every signal...
    /// Completes once any signal has completed and every value it sent has been paired
    /// (RAC `+zip:`). `zip([])` completes at once.
    public static func zip(_ signals: [Signal]) -> Signal<[Value], Failure> {
        guard !signals.isEmpty else { return .empty }
        return Signal<[Value], Failure> { subscriber in
            let serializer = Serializer(ZipState<Value>(count: signals.count), subscriber)
            return subscribeEach(signals, stoppingWith: subscriber) { index, event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        state.queues[index].append(value)
                        if state.queues.allSatisfy({ !$0.isEmpty }) {
                            outbox.append(.next(state.queues.indices.map { state.queues[$0].removeFirst() }))
                        }
                    case .error(let error):
                        outbox.append(.error(error))
                        return
                    case .completed:
                        state.completed[index] = true
                    }
                    let finished = state.queues.indices.contains { state.completed[$0] && state.queues[$0].isEmpty }
                    if finished { outbox.append(.completed) }
                }
            }
        }
    }

    /// Pairs this signal's values with `other`'s by position (RAC `zipWith:`).
    public func zip<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal<CombinedValue, Failure>.zip([map(CombinedValue.init), other.map(CombinedValue.init)])
            .map { ($0[0].base as! Value, $0[1].base as! Other) }
    }
}

/// The values of each input not paired yet, and which inputs completed.
struct ZipState<Value: Sendable>: Sendable {
    var queues: [[Value]]
    var completed: [Bool]

    init(count: Int) {
        queues = Array(repeating: [], count: count)
        completed = Array(repeating: false, count: count)
    }
}
