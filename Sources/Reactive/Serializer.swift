import Locking

/// Serializes the events of an operator with several inputs (combineLatest, merge, zip, the
/// flattening operators, throttle...) into one subscriber, without holding a lock while calling out.
///
/// Every input updates the operator's state under one lock and appends the events to send, in
/// order, to a queue in the same critical section; then whichever thread finds nobody draining the
/// queue becomes the drainer and delivers everything queued, one event at a time, outside the lock.
/// So the subscriber sees one ordered sequence, never concurrent calls, and a subscriber that makes
/// the operator emit again (reentrancy) has that event queued and delivered right after its own
/// call returns, instead of deadlocking.
@usableFromInline
final class Serializer<State: Sendable, Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline
    struct Inner: Sendable {
        @usableFromInline var state: State
        @usableFromInline var queue: [Event<Value, Failure>] = []
        /// The next event of `queue` to deliver; the queue is emptied (keeping its storage) once
        /// all are delivered, so steady traffic allocates nothing.
        @usableFromInline var head = 0
        @usableFromInline var isDraining = false
        @usableFromInline init(state: State) { self.state = state }
    }

    @usableFromInline let inner: Lock<Inner>
    /// The downstream subscriber.
    @usableFromInline let subscriber: Subscriber<Value, Failure>

    @usableFromInline
    init(_ state: State, _ subscriber: Subscriber<Value, Failure>) {
        inner = Lock(Inner(state: state))
        self.subscriber = subscriber
    }

    /// Runs `body` with the state under the lock; events appended to `outbox` are delivered in
    /// order after the lock is released. `body` must not call out.
    @inlinable
    func update<Result>(_ body: (inout State, inout [Event<Value, Failure>]) -> Result) -> Result {
        // The thread that finds nobody draining takes the first queued event with it, so the usual
        // case — one event, no contention — costs one lock here and one to find the queue empty.
        let (result, first) = inner.withLock { inner -> (Result, Event<Value, Failure>?) in
            let result = body(&inner.state, &inner.queue)
            guard inner.queue.count > inner.head, !inner.isDraining else { return (result, nil) }
            inner.isDraining = true
            defer { inner.head += 1 }
            return (result, inner.queue[inner.head])
        }
        if let first {
            subscriber.send(first)
            drain()
        }
        return result
    }

    /// Queues `event` for delivery, with no state change.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        update { _, outbox in outbox.append(event) }
    }

    @inlinable
    func drain() {
        while true {
            let next = inner.withLock { inner -> Event<Value, Failure>? in
                guard inner.head < inner.queue.count else {
                    inner.queue.removeAll(keepingCapacity: true)
                    inner.head = 0
                    inner.isDraining = false
                    return nil
                }
                defer { inner.head += 1 }
                return inner.queue[inner.head]
            }
            guard let next else { return }
            subscriber.send(next)
        }
    }
}
