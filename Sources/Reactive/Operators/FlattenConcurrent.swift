extension Signal {
    /// Subscribes to at most `limit` inner signals at a time (`nil`: to every one at once), in the
    /// order they arrive; the others wait their turn (RAC `flatten:`, whose `flatten` is
    /// `flatten:0` and whose `concat` of a signal of signals is `flatten:1`). Completes once this
    /// signal and every inner signal have completed; an error from any ends it, and no inner signal
    /// is subscribed after that.
    @inlinable
    func flatten<Inner: Sendable>(limit: Int?) -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let serializer = Serializer(FlattenState<Inner, Failure>(), subscriber)
            let inners = CompoundDisposable()
            subscriber.add(inners)
            /// Ends a running inner signal, freeing its slot. The next waiting signal takes the slot
            /// and is returned, to be started with `startWaiting` — unless that loop is already
            /// running, which then takes it. With nothing running or waiting, the flattening
            /// completes if the outer signal has.
            @Sendable func finishInner() -> Signal<Inner, Failure>? {
                serializer.update { state, outbox -> Signal<Inner, Failure>? in
                    state.active -= 1
                    if !state.isStartingWaiting, let next = state.nextWaiting() {
                        state.active += 1
                        state.isStartingWaiting = true
                        return next
                    }
                    if state.isFinished { outbox.append(.completed) }
                    return nil
                }
            }
            /// Starts `first`, a waiting signal that took a free slot, then every waiting signal
            /// for which a slot is free, in a loop: a waiting signal that completes synchronously
            /// frees its slot from inside its own subscription, and starting the next one there
            /// would go one stack frame deeper per signal (thousands of them overflowed the stack).
            @Sendable func startWaiting(_ first: Signal<Inner, Failure>) {
                var next: Signal<Inner, Failure>? = first
                while let signal = next {
                    start(signal)
                    next = serializer.update { state, _ -> Signal<Inner, Failure>? in
                        if let limit, state.active < limit, let next = state.nextWaiting() {
                            state.active += 1
                            return next
                        }
                        state.isStartingWaiting = false
                        return nil
                    }
                }
            }
            /// Subscribes to `signal`, which holds a slot.
            @Sendable func start(_ signal: Signal<Inner, Failure>) {
                guard !subscriber.isStopped else { return }
                if let value = signal.justValue {
                    // A `just` signal sends its value and completes the moment it is subscribed:
                    // deliver the value without subscribing.
                    serializer.send(.next(value))
                    if let next = finishInner() { startWaiting(next) }
                    return
                }
                // Each inner subscription leaves the compound disposable when it ends, so a
                // long-lived flattening does not accumulate finished subscriptions. The slot lets
                // go of the ended subscriber as it leaves, without disposing (RAC removes its
                // serial disposable so): the slot holds the subscriber whose closure holds the
                // slot, and Swift's subscriber keeps its closure, where RAC's drops its blocks
                // when it stops — without this every finished inner subscription leaked.
                let slot = SerialDisposable()
                let inner = Subscriber<Inner, Failure> { innerEvent in
                    guard case .completed = innerEvent else {
                        if innerEvent.isTerminating {
                            inners.remove(slot)
                            slot.swap(in: nil)
                        }
                        serializer.send(innerEvent)
                        return
                    }
                    inners.remove(slot)
                    slot.swap(in: nil)
                    if let next = finishInner() { startWaiting(next) }
                }
                slot.inner = inner
                inners.add(slot)
                signal.subscribe(inner)
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure> { event in
                switch event {
                case .next(let innerSignal):
                    if let value = innerSignal.justValue {
                        // Delivered at once unless it has to wait its turn, without subscribing
                        // to it (see `start`).
                        serializer.update { state, outbox in
                            if state.mustWait(limit) {
                                state.waiting.append(innerSignal)
                            } else {
                                outbox.append(.next(value))
                            }
                        }
                        return
                    }
                    let startNow = serializer.update { state, _ -> Bool in
                        if state.mustWait(limit) {
                            state.waiting.append(innerSignal)
                            return false
                        }
                        state.active += 1
                        return true
                    }
                    if startNow { start(innerSignal) }
                case .error(let error):
                    serializer.send(.error(error))
                case .completed:
                    serializer.update { state, outbox in
                        state.isOuterCompleted = true
                        if state.isFinished { outbox.append(.completed) }
                    }
                }
            }
            return subscribe(outer, for: subscriber)
        }
    }
}

/// The state of a limited flattening: running inner subscriptions and the signals waiting.
@usableFromInline
struct FlattenState<Value: Sendable, Failure: Error>: Sendable {
    /// Inner subscriptions running (a waiting signal handed over to start counts as running).
    @usableFromInline var active = 0
    @usableFromInline var waiting: [Signal<Value, Failure>] = []
    /// The first signal of `waiting` not yet started: removing from the front costs nothing, and
    /// the array is emptied, keeping its storage, once every waiting signal has started.
    @usableFromInline var waitingHead = 0
    @usableFromInline var isOuterCompleted = false
    /// Set while a loop starts waiting signals (`startWaiting`): a slot freed meanwhile is left
    /// for it to fill.
    @usableFromInline var isStartingWaiting = false
    @usableFromInline init() {}

    /// Whether a new inner signal must wait: every slot is taken, or signals that came before it
    /// are still waiting (for the starting loop to give them the slots just freed).
    @inlinable
    func mustWait(_ limit: Int?) -> Bool {
        guard let limit else { return false }
        return active >= limit || waitingHead < waiting.count
    }

    @inlinable
    var isFinished: Bool { isOuterCompleted && active == 0 && waitingHead == waiting.count }

    /// The next waiting signal, which takes over the slot of one that completed.
    @inlinable
    mutating func nextWaiting() -> Signal<Value, Failure>? {
        guard waitingHead < waiting.count else { return nil }
        defer {
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
        }
        return waiting[waitingHead]
    }
}
