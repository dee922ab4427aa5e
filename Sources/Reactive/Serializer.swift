import Locking

/// Serializes the events of an operator with several inputs (combineLatest, merge, zip, the
/// flattening operators, throttle...) into one subscriber, without holding a lock while calling out.
///
/// Every input updates the operator's state under one lock and appends the events to send, in
/// order, to an ``Outbox`` in the same critical section. A thread that finds nobody draining
/// becomes the drainer: it delivers its first event, then everything queued meanwhile, one event
/// at a time, outside the lock; a thread that finds a drainer queues its events for it.
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
    func update<Result>(_ body: (inout State, inout Outbox<Value, Failure>) -> Result) -> Result {
        // The thread that finds nobody draining takes the first event with it, so the usual
        // case — one event, no contention — costs one lock here and one to find the queue empty,
        // and never touches the queue's array.
        let (result, first) = inner.withLock { inner -> (Result, Event<Value, Failure>?) in
            var outbox = Outbox<Value, Failure>()
            let result = body(&inner.state, &outbox)
            guard let first = outbox.first else { return (result, nil) }
            if inner.isDraining {
                inner.queue.append(first)
                if let rest = outbox.rest { inner.queue.append(contentsOf: rest) }
                return (result, nil)
            }
            inner.isDraining = true
            if let rest = outbox.rest { inner.queue.append(contentsOf: rest) }
            return (result, first)
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
                    if inner.head > 0 { inner.queue.removeAll(keepingCapacity: true) }
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

/// The events one ``Serializer/update(_:)`` sends, in order: the first held inline, since most
/// updates send one event and then no array is touched.
@usableFromInline
struct Outbox<Value: Sendable, Failure: Error> {
    @usableFromInline var first: Event<Value, Failure>?
    @usableFromInline var rest: [Event<Value, Failure>]?
    @inlinable init() {}

    /// Queues `event` after those already appended.
    @inlinable
    mutating func append(_ event: Event<Value, Failure>) {
        if first == nil {
            first = event
        } else if rest == nil {
            rest = [event]
        } else {
            rest!.append(event)
        }
    }
}
