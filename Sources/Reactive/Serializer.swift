import Locking
import Synchronization

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
        @usableFromInline init(state: State) { self.state = state }
    }

    @usableFromInline let inner: SpinLock<Inner>
    /// Whether a thread is delivering, and whether it has events queued for it: ``idle``,
    /// ``draining`` or ``queued``. It leaves `idle` only under the lock, and enters it only by the
    /// drainer's compare-and-exchange from `draining`, outside the lock: so a drainer that finds
    /// nothing queued after its event stops with one atomic operation instead of taking the lock
    /// again, and a thread that queues an event under the lock either marks it `queued` before the
    /// drainer stops or finds the serializer idle and delivers the event itself.
    @usableFromInline let drain = Atomic<UInt8>(Serializer.idle)
    /// The downstream subscriber.
    @usableFromInline let subscriber: Subscriber<Value, Failure>

    @usableFromInline static var idle: UInt8 { 0 }
    @usableFromInline static var draining: UInt8 { 1 }
    @usableFromInline static var queued: UInt8 { 2 }

    @usableFromInline
    init(_ state: State, _ subscriber: Subscriber<Value, Failure>) {
        inner = SpinLock(Inner(state: state))
        self.subscriber = subscriber
    }

    /// Runs `body` with the state under the lock; events appended to `outbox` are delivered in
    /// order after the lock is released. `body` must not call out.
    @inlinable
    func update<Result>(_ body: (inout State, inout Outbox<Value, Failure>) -> Result) -> Result {
        // The thread that finds nobody draining takes the first event with it, so the usual
        // case — one event, no contention — costs one lock here and one compare-and-exchange to
        // stop draining, and never touches the queue's array.
        let (result, first) = inner.withLock { inner -> (Result, Event<Value, Failure>?) in
            var outbox = Outbox<Value, Failure>()
            let result = body(&inner.state, &outbox)
            guard let first = outbox.first else { return (result, nil) }
            if becomesDrainer(hasMore: outbox.rest != nil) {
                if let rest = outbox.rest { inner.queue.append(contentsOf: rest) }
                return (result, first)
            }
            inner.queue.append(first)
            if let rest = outbox.rest { inner.queue.append(contentsOf: rest) }
            return (result, nil)
        }
        if let first {
            subscriber.send(first)
            drainQueue()
        }
        return result
    }

    /// Under the lock, with events to send: true if the caller is to deliver them (the serializer
    /// was idle), false if a drainer will (it is now marked `queued`).
    @inlinable
    func becomesDrainer(hasMore: Bool) -> Bool {
        var current = drain.load(ordering: .acquiring)
        while true {
            if current == Self.idle {
                // Nobody else leaves `idle`: that happens only under the lock this thread holds.
                drain.store(hasMore ? Self.queued : Self.draining, ordering: .releasing)
                return true
            }
            if current == Self.queued { return false }
            let (exchanged, original) = drain.compareExchange(
                expected: Self.draining,
                desired: Self.queued,
                ordering: .acquiringAndReleasing
            )
            if exchanged { return false }
            current = original  // the drainer stopped meanwhile: the serializer is idle
        }
    }

    /// When nobody is delivering, makes the calling thread the deliverer until it calls
    /// ``releaseDelivery(_:)``: meanwhile it may send to ``subscriber`` directly (while
    /// ``isQueueEmpty`` holds), and the events of other threads, or of its own calls to
    /// ``update(_:)``, wait in the queue. Runs `body` on the state under the same lock, told
    /// whether delivery is held; returns its result and that. Unheld, only `body` had an effect.
    @inlinable
    func holdDelivery<Result>(_ body: (inout State, _ isHeld: Bool) -> Result) -> (Result, isHeld: Bool) {
        inner.withLock { inner in
            // Only a thread holding the lock leaves `idle`; a drainer about to stop may still
            // show `draining`, and then this thread simply does not take delivery.
            let isHeld = drain.load(ordering: .acquiring) == Self.idle
            if isHeld { drain.store(Self.draining, ordering: .releasing) }
            return (body(&inner.state, isHeld), isHeld)
        }
    }

    /// Whether nothing waits for the thread holding delivery: when false, that thread's own
    /// events go through ``update(_:)`` too, behind those queued, so that none overtakes another
    /// sent before it.
    @inlinable
    var isQueueEmpty: Bool { drain.load(ordering: .acquiring) == Self.draining }

    /// Sends `event` downstream from the thread holding delivery (``holdDelivery(_:)``).
    @inlinable
    func sendHeld(_ event: Event<Value, Failure>) {
        subscriber.send(event)
    }

    /// Ends what ``holdDelivery(_:)`` began: runs `body` under the lock, then delivers the events
    /// it appended after everything queued meanwhile, and stops delivering.
    @inlinable
    func releaseDelivery<Result>(_ body: (inout State, inout Outbox<Value, Failure>) -> Result) -> Result {
        let (result, mustDrain) = inner.withLock { inner -> (Result, Bool) in
            var outbox = Outbox<Value, Failure>()
            let result = body(&inner.state, &outbox)
            guard let first = outbox.first else {
                // Under the lock nobody else moves the word: `draining` means nothing queued.
                if drain.load(ordering: .acquiring) == Self.draining {
                    drain.store(Self.idle, ordering: .releasing)
                    return (result, false)
                }
                return (result, true)
            }
            inner.queue.append(first)
            if let rest = outbox.rest { inner.queue.append(contentsOf: rest) }
            drain.store(Self.queued, ordering: .releasing)
            return (result, true)
        }
        if mustDrain { drainQueue() }
        return result
    }

    /// Queues `event` for delivery, with no state change.
    @inlinable
    func send(_ event: Event<Value, Failure>) {
        update { _, outbox in outbox.append(event) }
    }

    /// Delivers what was queued while this thread delivered, until nothing is.
    @inlinable
    func drainQueue() {
        while true {
            if drain.compareExchange(expected: Self.draining, desired: Self.idle, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            // Marked `queued`: at least one event waits.
            let next = inner.withLock { inner -> Event<Value, Failure> in
                let next = inner.queue[inner.head]
                inner.head += 1
                if inner.head == inner.queue.count {
                    inner.queue.removeAll(keepingCapacity: true)
                    inner.head = 0
                    drain.store(Self.draining, ordering: .releasing)
                }
                return next
            }
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
