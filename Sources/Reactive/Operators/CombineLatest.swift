extension Signal {
    /// Sends an array of the latest value of every signal each time any of them sends, once every
    /// one has sent at least one value; completes when all complete; fails when any fails
    /// (RAC `+combineLatest:`). `combineLatest([])` completes at once.
    @inlinable
    public static func combineLatest(_ signals: [Signal]) -> Signal<[Value], Failure> {
        guard !signals.isEmpty else { return .empty }
        return Signal<[Value], Failure> { subscriber in
            let serializer = Serializer(CombineLatestState<Value>(count: signals.count), subscriber)
            return subscribeEach(signals, stoppingWith: subscriber) { index, event in
                serializer.update { state, outbox in
                    switch event {
                    case .next(let value):
                        if let all = state.record(value, at: index) { outbox.append(.next(all)) }
                    case .error(let error):
                        outbox.append(.error(error))
                    case .completed:
                        state.completed += 1
                        if state.completed == state.count { outbox.append(.completed) }
                    }
                }
            }
        }
    }

    /// Combines the latest values of this signal and `other` into pairs (RAC `combineLatestWith:`).
    @inlinable
    public func combineLatest<Other: Sendable>(with other: Signal<Other, Failure>) -> Signal<(Value, Other), Failure> {
        Signal<(Value, Other), Failure>.combineLatest(self, other)
    }

    /// Combines the latest values of two signals into pairs (RAC `+combineLatest:` of two signals).
    /// Written out for two inputs, without arrays, as the most common case is the hot one.
    @inlinable
    public static func combineLatest<A: Sendable, B: Sendable>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>
    ) -> Signal<(A, B), Failure> where Value == (A, B) {
        Signal { subscriber in
            let serializer = Serializer(CombineLatest2State<A, B>(), subscriber)
            /// An input's error ends the combination; both inputs' completions complete it.
            @Sendable func end(_ error: Failure?) {
                serializer.update { state, outbox in
                    if let error {
                        outbox.append(.error(error))
                    } else {
                        state.completed += 1
                        if state.completed == 2 { outbox.append(.completed) }
                    }
                }
            }
            let subscriptions = CompoundDisposable()
            subscriber.add(subscriptions)  // before the inputs run: a synchronous one sees the stop
            let inputA = Subscriber<A, Failure> { event in
                switch event {
                case .next(let value):
                    serializer.update { state, outbox in
                        state.a = value
                        if let b = state.b { outbox.append(.next((value, b))) }
                    }
                case .error(let error): end(error)
                case .completed: end(nil)
                }
            }
            subscriptions.add(inputA)
            a.subscribe(inputA)
            if subscriber.isStopped { return nil }
            let inputB = Subscriber<B, Failure> { event in
                switch event {
                case .next(let value):
                    serializer.update { state, outbox in
                        state.b = value
                        if let a = state.a { outbox.append(.next((a, value))) }
                    }
                case .error(let error): end(error)
                case .completed: end(nil)
                }
            }
            subscriptions.add(inputB)
            b.subscribe(inputB)
            return nil
        }
    }

    /// Combines the latest values of three signals into triples (RAC `+combineLatest:` of three).
    public static func combineLatest<A: Sendable, B: Sendable, C: Sendable>(
        _ a: Signal<A, Failure>,
        _ b: Signal<B, Failure>,
        _ c: Signal<C, Failure>
    ) -> Signal<(A, B, C), Failure> where Value == (A, B, C) {
        Signal<CombinedValue, Failure>.combineLatest([
            a.map(CombinedValue.init), b.map(CombinedValue.init),
            c.map(CombinedValue.init),
        ])
        .map { ($0[0].base as! A, $0[1].base as! B, $0[2].base as! C) }
    }
}

/// The latest value of each of two inputs, and how many have completed.
@usableFromInline
struct CombineLatest2State<A: Sendable, B: Sendable>: Sendable {
    @usableFromInline var a: A?
    @usableFromInline var b: B?
    @usableFromInline var completed = 0
    @usableFromInline init() {}
}

/// A value of any of the combined signals, so that one array-based implementation serves every arity.
struct CombinedValue: Sendable {
    let base: any Sendable
}

/// The latest value of each input, and how many have sent one and how many have completed.
@usableFromInline
struct CombineLatestState<Value: Sendable>: Sendable {
    /// The latest value of each input; valid once all have one (`filled == count`).
    @usableFromInline var latest: [Value?]
    /// What is sent: `latest` unwrapped, kept up to date once all inputs have a value.
    @usableFromInline var all: [Value] = []
    /// The number of inputs.
    @usableFromInline let count: Int
    @usableFromInline var filled = 0
    @usableFromInline var completed = 0

    @usableFromInline
    init(count: Int) {
        self.count = count
        latest = Array(repeating: nil, count: count)
    }

    /// Records `value` for input `index`; returns every latest value once all inputs have one.
    @inlinable
    mutating func record(_ value: Value, at index: Int) -> [Value]? {
        if filled == count {
            all[index] = value  // the array sent last is shared with the subscriber: copied on write
            return all
        }
        if latest[index] == nil { filled += 1 }
        latest[index] = value
        guard filled == count else { return nil }
        all = latest.map { $0! }
        latest = []
        return all
    }
}
