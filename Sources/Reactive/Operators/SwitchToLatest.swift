import Locking
import Synchronization

extension Signal {
    /// Sends the values of the latest inner signal only: each new inner signal disposes the
    /// previous one (RAC `switchToLatest`). Completes once this signal and the latest inner signal
    /// have completed; an error from either ends it.
    @inlinable
    public func switchToLatest<Inner: Sendable>() -> Signal<Inner, Failure> where Value == Signal<Inner, Failure> {
        Signal<Inner, Failure> { subscriber in
            let core = SwitchCore(subscriber)
            let ending = ActionDisposable { core.end() }
            if Inspection.isAnyThreadInspecting { core.reportHeld(by: ending) }
            subscriber.add(ending)
            // RAC's three blocks rather than one closure of events: an event made of the inner
            // signal would copy it, a retain and a release per outer value.
            // Whether its swaps are reported is decided once, as it is subscribed: a check per
            // outer value kept the inner signal alive across a call, a retain and release more
            // per value (case 4b of the core benchmarks, counted by callgrind).
            let switchTo: @Sendable (Signal<Inner, Failure>) -> Void
            if Inspection.isAnyThreadInspecting {
                switchTo = { core.switchTo($0, reporting: true) }
            } else {
                switchTo = { core.switchTo($0, reporting: false) }
            }
            let outer = Subscriber<Signal<Inner, Failure>, Failure>(
                next: switchTo,
                error: { core.serializer.send(.error($0)) },
                completed: {
                    core.serializer.update { state, outbox in
                        state.isOuterCompleted = true
                        if !state.hasInner { outbox.append(.completed) }
                    }
                }
            )
            return subscribe(outer, for: subscriber)
        }
    }
}

/// What one subscription to ``Signal/switchToLatest()`` shares between its outer and inner
/// subscribers: the serializer of its events, and the inner subscription being subscribed to.
///
/// The thread that receives an outer value usually finds nobody delivering, and then holds the
/// serializer's delivery while it subscribes to the new inner signal: that inner signal's events on
/// the same thread — all of them, for one that completes at once — go downstream without taking
/// the lock per event, and an inner signal that completes before its subscription returns is never
/// installed as the current one. Every other event (another thread's, or one behind queued
/// events) goes through the serializer as before.
@usableFromInline
final class SwitchCore<Value: Sendable, Failure: Error>: @unchecked Sendable {
    @usableFromInline let serializer: Serializer<SwitchState, Value, Failure>
    /// The thread holding delivery while it subscribes to the latest inner signal, or 0. Only that
    /// thread writes its identity here, so a thread that reads its own identity is that thread.
    @usableFromInline let subscribingThread = Atomic<UInt>(0)
    /// The inner subscription that thread subscribes; read and written by it alone.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var subscribingInner: ObjectIdentifier?
    /// Whether that inner subscription completed before its subscription returned; that thread's alone.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var completedWhileSubscribing = false

    @usableFromInline
    init(_ subscriber: Subscriber<Value, Failure>) {
        serializer = Serializer(SwitchState(), subscriber)
        if Inspection.isAnyThreadInspecting {
            // Inspected as what it does: it holds the latest inner subscription and swaps it, as
            // a serial disposable would (docs/OPERATORS.md on how RAC 2.x builds the same).
            Inspection.reportCreated(self, as: .serialDisposable)
        }
    }

    deinit { if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) } }

    /// Reports that `ending`, which ends the switching when disposed, holds this state.
    @usableFromInline
    func reportHeld(by ending: ActionDisposable) {
        Inspection.reportAdded(self, to: ending)
    }

    /// Ends the switching (its subscription was disposed or ended): the latest inner
    /// subscription is disposed.
    @usableFromInline
    func end() {
        let inner = serializer.update { state, _ in state.end() }
        if Inspection.isAnyThreadInspecting {
            reportSwap(old: inner.map(ObjectIdentifier.init), new: nil)
            Inspection.reportDisposed(self)
        }
        inner?.dispose()
    }

    /// Reports that the latest inner subscription changed from `old` to `new` (identities only:
    /// passing the objects made the hot path retain them).
    @usableFromInline @inline(never)
    func reportSwap(old: ObjectIdentifier?, new: ObjectIdentifier?) {
        guard old != new else { return }
        Inspection.reportSwap(self, old: old, new: new)
    }

    /// Disposes the previous inner subscription and subscribes to `innerSignal`; reports the swap
    /// to the thread's inspector when `reporting` (a constant where it is called).
    @inlinable @inline(__always)
    func switchTo(_ innerSignal: Signal<Value, Failure>, reporting: Bool) {
        if let value = innerSignal.justValue {
            // A `just` inner signal would send its value and complete the moment it is
            // subscribed: deliver the value without subscribing to it.
            let previous = serializer.update { state, outbox -> (any Disposable)? in
                guard !state.isDisposed else { return nil }
                guard let previous = state.takeInner() else {
                    outbox.append(.next(value))
                    return nil
                }
                return previous
            }
            // As when subscribing: the previous inner is disposed before the value.
            if let previous {
                if reporting { reportSwap(old: ObjectIdentifier(previous), new: nil) }
                previous.dispose()
                serializer.send(.next(value))
            }
            return
        }
        // Only the latest inner subscription's events pass: one that was replaced may still be
        // delivering on another thread.
        let inner = Subscriber<Value, Failure>(observingWithSubscriber: { [self] inner, event in
            receive(event, from: inner)
        })
        let (previous, isHeld) = serializer.holdDelivery { state, isHeld in
            state.replaceInner(with: inner, isSubscribing: isHeld)
        }
        if reporting {
            Inspection.reportSeen(inner)
            // `previous` is `inner` itself when the switch was disposed: no swap then.
            reportSwap(old: previous.map(ObjectIdentifier.init), new: previous === inner ? nil : ObjectIdentifier(inner))
        }
        previous?.dispose()
        guard isHeld else {
            innerSignal.subscribe(inner)
            return
        }
        subscribingInner = ObjectIdentifier(inner)
        completedWhileSubscribing = false
        subscribingThread.store(ThreadIdentity.current, ordering: .relaxed)
        innerSignal.subscribe(inner)
        subscribingThread.store(0, ordering: .relaxed)
        subscribingInner = nil
        let completed = completedWhileSubscribing
        // `inner` lives until the state no longer names it, unretained, as being subscribed.
        let ended = serializer.releaseDelivery { state, outbox in
            state.endSubscribing(inner, completed: completed, outbox: &outbox)
        }
        if ended, reporting { reportSwap(old: ObjectIdentifier(inner), new: nil) }
    }

    /// An event of the inner subscription `inner`.
    @inlinable
    func receive(_ event: Event<Value, Failure>, from inner: Subscriber<Value, Failure>) {
        if subscribingThread.load(ordering: .relaxed) == ThreadIdentity.current,
            subscribingInner == ObjectIdentifier(inner), serializer.isQueueEmpty
        {
            // This thread holds delivery, nothing waits, and `inner` is the latest.
            if case .completed = event {
                completedWhileSubscribing = true
            } else {
                serializer.sendHeld(event)
            }
            return
        }
        let ended = serializer.update { state, outbox -> Bool in
            guard state.isLatest(inner) else { return false }
            if case .completed = event {
                _ = state.takeInner()  // ended: nothing left to dispose
                if state.isOuterCompleted { outbox.append(.completed) }
                return true
            } else {
                outbox.append(event)
                return false
            }
        }
        if ended, Inspection.isAnyThreadInspecting { reportSwap(old: ObjectIdentifier(inner), new: nil) }
    }
}

@usableFromInline
struct SwitchState: Sendable {
    @usableFromInline var isOuterCompleted = false
    /// The latest inner subscription once its subscription has returned, until it completes, is
    /// replaced, or the whole subscription is disposed.
    @usableFromInline var current: (any Disposable)?
    /// The latest inner subscription while the thread holding delivery subscribes to it: not
    /// retained, as that thread keeps it alive until it clears this, under the lock.
    @usableFromInline var subscribing: Unmanaged<Subscription>?
    /// Set once disposed: an inner subscription installed after that is disposed at once.
    @usableFromInline var isDisposed = false
    @usableFromInline init() {}

    /// Whether an inner subscription runs.
    @inlinable
    var hasInner: Bool { current != nil || subscribing != nil }

    /// Whether `inner` is the latest inner subscription.
    @inlinable
    func isLatest(_ inner: Subscription) -> Bool {
        if let subscribing { return subscribing.toOpaque() == Unmanaged.passUnretained(inner).toOpaque() }
        return current === inner
    }

    /// Removes the latest inner subscription and returns it (retained).
    @inlinable
    mutating func takeInner() -> (any Disposable)? {
        if let taken = subscribing {
            subscribing = nil
            return taken.takeUnretainedValue()
        }
        return current.take()
    }

    /// Makes `next` the latest inner subscription — being subscribed by the thread holding
    /// delivery, or installed — and returns what must be disposed: the previous one, or `next`
    /// itself if the switch was already disposed.
    @inlinable
    mutating func replaceInner(with next: Subscription, isSubscribing: Bool) -> (any Disposable)? {
        if isDisposed { return next }
        let previous = takeInner()
        if isSubscribing {
            subscribing = .passUnretained(next)
        } else {
            current = next
        }
        return previous
    }

    /// Ends the switching and returns the inner subscription to dispose.
    @inlinable
    mutating func end() -> (any Disposable)? {
        if isDisposed { return nil }
        isDisposed = true
        return takeInner()
    }

    /// The subscription to `inner` returned: unless it was replaced or disposed meanwhile, it
    /// becomes the current one, or, if it completed already, the switch completes with the outer.
    /// Answers whether it completed as the latest: no inner subscription runs now.
    @inlinable
    mutating func endSubscribing(
        _ inner: Subscription,
        completed: Bool,
        outbox: inout Outbox<some Sendable, some Error>
    ) -> Bool {
        guard let subscribing, subscribing.toOpaque() == Unmanaged.passUnretained(inner).toOpaque() else {
            return false
        }
        self.subscribing = nil
        if !completed {
            current = inner
        } else if isOuterCompleted {
            outbox.append(.completed)
        }
        return completed
    }
}
