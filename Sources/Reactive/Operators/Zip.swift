extension Signal {
    /// Pairs values by position: the first of every signal, then the second of every signal...
    /// Completes once any signal has completed and every value it sent has been paired
    /// (RAC `+zip:`). `zip([])` completes at once.
    @inlinable
    public static func zip(_ signals: [Signal]) -> Signal<[Value], Failure> {
        guard !signals.isEmpty else { return .empty }
        return Signal<[Value], Failure> { subscriber in
            let serializer = Serializer(ZipState<Value>(count: signals.count), subscriber)
            return subscribeEach(signals, stoppingWith: subscriber) { index, event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        state.queues[index].append(value)
                        if let values = state.takeRow() { outbox.append(.next(values)) }
                    case .error(let error):
                        outbox.append(.error(error))
                        return
                    case .completed:
                        state.queues[index].isCompleted = true
                    }
                    if state.isFinished { outbox.append(.completed) }
                }
            }
        }
    }

    /// Pairs this signal's values with `other`'s by position (RAC `zipWith:`).
    @inlinable
    public func zip<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal<(Value, Other), Failure>.zip(self, other)
    }

    /// Pairs the values of two signals by position (RAC `+zip:` of two signals). Written out for
    /// two inputs, without arrays, as for `combineLatest(_:_:)`.
    @inlinable
    public static func zip<A: Sendable, B: Sendable>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>
    ) -> Signal<(A, B), Failure> where Value == (A, B) {
        Signal { subscriber in
            let serializer = Serializer(Zip2State<A, B>(), subscriber)
            let subscriptions = CompoundDisposable()
            subscriber.add(subscriptions)  // before the inputs run: a synchronous one sees the stop
            let inputA = Subscriber<A, Failure> { event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        state.a.append(value)
                        if let pair = state.takePair() { outbox.append(.next(pair)) }
                    case .error(let error):
                        outbox.append(.error(error))
                        return
                    case .completed:
                        state.a.isCompleted = true
                    }
                    if state.isFinished { outbox.append(.completed) }
                }
            }
            subscriptions.add(inputA)
            a.subscribe(inputA)
            if subscriber.isStopped { return nil }
            let inputB = Subscriber<B, Failure> { event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        state.b.append(value)
                        if let pair = state.takePair() { outbox.append(.next(pair)) }
                    case .error(let error):
                        outbox.append(.error(error))
                        return
                    case .completed:
                        state.b.isCompleted = true
                    }
                    if state.isFinished { outbox.append(.completed) }
                }
            }
            subscriptions.add(inputB)
            b.subscribe(inputB)
            return nil
        }
    }
}

/// The values of one zipped input not paired yet, and whether it completed. Taking from the front
/// costs nothing: a head index moves, and the storage is reused once every value was taken.
@usableFromInline
struct ZipQueue<Value: Sendable>: Sendable {
    @usableFromInline var values: [Value] = []
    @usableFromInline var head = 0
    @usableFromInline var isCompleted = false
    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { head == values.count }
    /// Completed, with every value paired: nothing more can be zipped.
    @inlinable var isExhausted: Bool { isCompleted && isEmpty }

    @inlinable
    mutating func append(_ value: Value) { values.append(value) }

    /// Removes the oldest value; the queue must not be empty.
    @inlinable
    mutating func removeFirst() -> Value {
        defer {
            head += 1
            if head == values.count {
                values.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        return values[head]
    }
}

/// The state of `zip(_:_:)`.
@usableFromInline
struct Zip2State<A: Sendable, B: Sendable>: Sendable {
    @usableFromInline var a = ZipQueue<A>()
    @usableFromInline var b = ZipQueue<B>()
    @usableFromInline init() {}

    @inlinable var isFinished: Bool { a.isExhausted || b.isExhausted }

    @inlinable
    mutating func takePair() -> (A, B)? {
        guard !a.isEmpty, !b.isEmpty else { return nil }
        return (a.removeFirst(), b.removeFirst())
    }
}

/// The state of `zip(_:)`: one queue per input.
@usableFromInline
struct ZipState<Value: Sendable>: Sendable {
    @usableFromInline var queues: [ZipQueue<Value>]

    @usableFromInline
    init(count: Int) {
        queues = Array(repeating: ZipQueue(), count: count)
    }

    @inlinable var isFinished: Bool { queues.contains { $0.isExhausted } }

    /// The oldest value of every input, once every input has one.
    @inlinable
    mutating func takeRow() -> [Value]? {
        guard !queues.contains(where: \.isEmpty) else { return nil }
        return queues.indices.map { queues[$0].removeFirst() }
    }
}
