import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The untyped half of every ``Subscriber``: whether its subscription has stopped, the resources it
/// holds, and its place in a hot signal's subscriber list. It is the ``Disposable`` that cancels
/// the subscription.
///
/// It is a class of its own, not generic, so that disposing and joining or leaving a subject's
/// list run one compiled body for every subscriber type — no generic metadata is looked up at run
/// time, which was most of the cost of a subscription before. ``Subscriber`` subclasses it.
public class Subscription: Disposable, @unchecked Sendable {
    /// Whether the subscription has stopped (``stoppedBit``) and whether `resourcesStorage` and
    /// `list` are locked (``lockedBit``): one word, so that stopping and taking the resources is
    /// one compare-and-exchange. The lock is a spin lock, not a mutex object, because every
    /// subscription has one and takes it only on subscribe and on stop; its acquire/release
    /// ordering is what ThreadSanitizer checks.
    @usableFromInline let state = Atomic<UInt8>(0)
    #if !REACTIVE_NO_INSPECTION
    /// Whether inspection has reported the subscription's creation (``Inspection/reportSeen(_:)``):
    /// once, the first time it is seen. In `state`'s padding: no byte more per subscription.
    @usableFromInline let inspectionSeen = Atomic<UInt8>(0)
    #endif
    @inlinable static var stoppedBit: UInt8 { 1 }
    @inlinable static var lockedBit: UInt8 { 2 }
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var resourcesStorage = Resources.none
    /// The hot signal whose list holds this subscription, if any (see ``SubscriberList`` on why
    /// it is strong): retained by hand while set, so that leaving costs exactly one release (a
    /// strong optional moved out and used still cost a retain and release more, on every
    /// dispose). Guarded by ``lockedBit``.
    @exclusivity(unchecked) nonisolated(unsafe) var list: Unmanaged<SubscriberList>?
    /// The subscription's index in `list`'s entries (-1 when in none). Guarded by that list's lock.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var listIndex = -1

    // No inspection report here: compiled into every caller, a report (even one never made) cost
    // every subscription a retain and a release. A subscription is reported, once, when it is
    // first held, joins a subject or stops (``Inspection/reportSeen(_:)``).
    @inlinable init() {}

    deinit {
        if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) }
        // Still set only if the list was gone before this subscription could be added to it.
        list?.release()
    }

    /// Whether a terminal event was sent or the subscription was disposed.
    @inlinable
    public final var isStopped: Bool { state.load(ordering: .acquiring) & Self.stoppedBit != 0 }

    /// Whether the subscription was cancelled or ended (same as ``isStopped``).
    public final var isDisposed: Bool { isStopped }

    /// Ties `disposable` to this subscription: it is disposed when the subscription stops, or at
    /// once if it already has (RAC `didSubscribeWithDisposable:`).
    public final func add(_ disposable: any Disposable) {
        let added = withResources { resources -> Bool in
            switch resources {
            case .stopped: return false
            case .none: resources = .one(disposable)
            case .one(let first): resources = .many([first, disposable])
            case .many(var all):
                resources = .none
                all.append(disposable)
                resources = .many(all)
            }
            return true
        }
        if !added {
            disposable.dispose()
        } else if Inspection.isAnyThreadInspecting {
            Inspection.reportHeld(disposable, bySubscription: self)
        }
    }

    /// Cancels the subscription: no further events are delivered and its resources are disposed.
    public final func dispose() {
        guard let taken = stopTakingResources() else { return }
        dispose(taken)
    }

    /// Makes `list` this subscription's list, unless it has stopped or belongs to a list already
    /// (a subscriber subscribed to two subjects joins the second through a forwarder).
    final func join(_ list: SubscriberList) -> Bool {
        let joined = withResources { resources -> Bool in
            if case .stopped = resources { return false }
            guard self.list == nil else { return false }
            self.list = .passRetained(list)
            return true
        }
        if joined, Inspection.isAnyThreadInspecting {
            Inspection.reportSeen(self)
            Inspection.reportAdded(self, to: list)
        }
        return joined
    }

    /// Forgets `list`, which has let this subscription go.
    final func leave(_ list: SubscriberList) {
        let left = withResources { _ -> Unmanaged<SubscriberList>? in
            guard self.list?.toOpaque() == Unmanaged.passUnretained(list).toOpaque() else { return nil }
            return self.list.take()
        }
        if left != nil, Inspection.isAnyThreadInspecting {
            Inspection.reportRemoved(self, from: list)
        }
        left?.release()  // outside the spin lock: it may be the last reference
    }

    /// Runs `body` with the resources, holding the spin lock (never while calling out).
    @usableFromInline
    final func withResources<Result>(_ body: (inout Resources) -> Result) -> Result {
        var spins = 0
        var unlocked = state.load(ordering: .relaxed)
        while true {
            if unlocked & Self.lockedBit == 0 {
                let (exchanged, original) = state.compareExchange(
                    expected: unlocked,
                    desired: unlocked | Self.lockedBit,
                    ordering: .acquiring
                )
                if exchanged { break }
                unlocked = original
            } else {
                spins += 1
                if spins > 64 { sched_yield() }
                unlocked = state.load(ordering: .relaxed)
            }
        }
        // Nobody else changes the word while it is locked.
        defer { state.store(unlocked, ordering: .releasing) }
        return body(&resourcesStorage)
    }

    /// Marks the subscription stopped and takes its resources and list, in one
    /// compare-and-exchange when the lock is free; `nil` if it had stopped already.
    @usableFromInline
    final func stopTakingResources() -> (resources: Resources, list: Unmanaged<SubscriberList>?)? {
        // While inspecting, a twin that reports: its call here is a jump, where a report after
        // stopping made every stop save three more registers (callgrind, case 4b).
        if Inspection.isAnyThreadInspecting { return stopTakingResourcesReporting() }
        return stopTakingResourcesSilently()
    }

    /// ``stopTakingResources()``, then reports the disposal if it stopped the subscription.
    @inline(never)
    final func stopTakingResourcesReporting() -> (resources: Resources, list: Unmanaged<SubscriberList>?)? {
        let taken = stopTakingResourcesSilently()
        if taken != nil {
            Inspection.reportSeen(self)
            Inspection.reportDisposed(self)
        }
        return taken
    }

    @inline(__always)
    final func stopTakingResourcesSilently() -> (resources: Resources, list: Unmanaged<SubscriberList>?)? {
        var spins = 0
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: 0,
                desired: Self.stoppedBit | Self.lockedBit,
                ordering: .acquiringAndReleasing
            )
            if exchanged { break }
            if original & Self.stoppedBit != 0 { return nil }
            spins += 1  // locked by `add`, `join` or `leave`
            if spins > 64 { sched_yield() }
        }
        // Moved out, not copied: a copy would retain what the assignment then releases.
        var taken = Resources.stopped
        swap(&taken, &resourcesStorage)
        let list = self.list.take()
        state.store(Self.stoppedBit, ordering: .releasing)
        return (taken, list)
    }

    /// Leaves the list and disposes the resources that ``stopTakingResources()`` took.
    @usableFromInline
    final func dispose(_ taken: (resources: Resources, list: Unmanaged<SubscriberList>?)) {
        if let list = taken.list {
            list._withUnsafeGuaranteedRef { $0.remove(self) }
            if Inspection.isAnyThreadInspecting {
                Inspection.reportRemoved(self, from: list.takeUnretainedValue())
            }
            list.release()
        }
        switch taken.resources {
        case .one(let disposable): disposable.dispose()
        case .many(let all): for disposable in all { disposable.dispose() }
        case .none, .stopped: break
        }
    }
}

/// Receives a signal's events: RAC's `RACSubscriber`, with the guarantees of its
/// `RACPassthroughSubscriber`.
///
/// - Nothing is delivered after a terminal event (`error` or `completed`) or after disposal.
/// - A terminal event or disposal disposes every resource added with ``Subscription/add(_:)`` —
///   the subscription's disposable returned by the signal's subscribe closure among them — exactly
///   once.
/// - Events to one subscriber must not be sent concurrently (RAC's contract, and Rx's): a signal
///   delivers them one at a time, from whatever thread produces them.
///
/// A subscriber is itself the ``Disposable`` that cancels its subscription (its ``Subscription``).
/// A subscription to a subject costs this one object and a slot in the subject's list.
public final class Subscriber<Value: Sendable, Failure: Error>: Subscription, @unchecked Sendable {
    // What receives the events: one closure for every event, or RAC's three blocks kept as they
    // are, so that `subscribe(next:)` allocates no closure wrapping them. Stored side by side, not
    // as an enum, so that delivering reads one property without copying (and retaining) the others.
    @usableFromInline let observe: (@Sendable (Event<Value, Failure>) -> Void)?
    /// For operators that must know which of their subscribers an event came from: the closure
    /// gets the subscriber itself, so it need not capture it (and a closure that captures one
    /// object needs no context allocation).
    @usableFromInline let observeWithSubscriber: (@Sendable (Subscriber, Event<Value, Failure>) -> Void)?
    @usableFromInline let next: (@Sendable (Value) -> Void)?
    @usableFromInline let error: (@Sendable (Failure) -> Void)?
    @usableFromInline let completed: (@Sendable () -> Void)?

    /// Creates a subscriber that passes every event to `observer`.
    @inlinable
    public init(_ observer: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        observe = observer
        observeWithSubscriber = nil
        next = nil
        error = nil
        completed = nil
        super.init()
    }

    /// Creates a subscriber from separate closures, as RAC's `subscribeNext:error:completed:` does.
    @inlinable
    public init(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        observe = nil
        observeWithSubscriber = nil
        self.next = next
        self.error = error
        self.completed = completed
        super.init()
    }

    /// Creates a subscriber whose observer receives, with each event, the subscriber itself.
    @inlinable
    init(observingWithSubscriber observer: @escaping @Sendable (Subscriber, Event<Value, Failure>) -> Void) {
        observe = nil
        observeWithSubscriber = observer
        next = nil
        error = nil
        completed = nil
        super.init()
    }

    /// Sends a value (RAC `sendNext:`), unless the subscriber has stopped.
    @inlinable
    public func sendNext(_ value: Value) {
        guard !isStopped else { return }
        // Optional chaining calls the stored closure in place; `if let` would retain a copy.
        // RAC's `next` block first: `subscribe(next:)`, `map` and `filter` take it, and a subject
        // calls this once per member for every value (case 6 of the core benchmarks).
        if next != nil {
            next?(value)
        } else if observeWithSubscriber != nil {
            observeWithSubscriber?(self, .next(value))
        } else {
            observe?(.next(value))
        }
    }

    /// ``sendNext(_:)`` compiled into its caller: the per-value paths of `from`, `map` and
    /// `filter`, where a call per stage was a third of a cold chain's time (docs/PERFORMANCE.md,
    /// case 2). Elsewhere the call is cheaper than the code it would copy.
    @inlinable
    @inline(__always)
    func forwardNext(_ value: Value) {
        guard !isStopped else { return }
        deliverNext(value)
    }

    /// Delivers a value without looking whether the subscriber has stopped: for a caller that
    /// has just looked (`from`'s loop).
    @inlinable
    @inline(__always)
    func deliverNext(_ value: Value) {
        if next != nil {
            next?(value)
        } else {
            sendNextAsEvent(value)
        }
    }

    /// Delivers a value to a subscriber that takes events, not RAC's blocks: out of line, but
    /// inlinable, so that callers in other modules still call a copy specialized for their types
    /// (unspecialized, it cost case 1 of the core benchmarks twice its time).
    @inlinable
    @inline(never)
    func sendNextAsEvent(_ value: Value) {
        if observeWithSubscriber != nil {
            observeWithSubscriber?(self, .next(value))
        } else {
            observe?(.next(value))
        }
    }

    /// Sends an error (RAC `sendError:`) and stops: resources are disposed after delivery.
    @inlinable
    public func sendError(_ error: Failure) {
        terminate(with: .error(error))
    }

    /// Sends completion (RAC `sendCompleted`) and stops: resources are disposed after delivery.
    @inlinable
    public func sendCompleted() {
        terminate(with: .completed)
    }

    /// Sends any event.
    @inlinable
    public func send(_ event: Event<Value, Failure>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }

    /// Sends a result as a signal of one value ends: the value then completion, or the error (what
    /// a callback or a service answers with).
    public func send(_ result: Result<Value, Failure>) {
        switch result {
        case .success(let value):
            sendNext(value)
            sendCompleted()
        case .failure(let error):
            sendError(error)
        }
    }

    @inlinable
    func terminate(with event: Event<Value, Failure>) {
        // Stopped and the resources taken at once; what the event's receiver adds meanwhile is
        // disposed at once, as RAC's subscriber disposes before calling its block.
        guard let taken = stopTakingResources() else { return }
        if observe != nil {
            observe?(event)
        } else if observeWithSubscriber != nil {
            observeWithSubscriber?(self, event)
        } else if case .error(let failure) = event {
            error?(failure)
        } else if case .completed = event {
            completed?()
        }
        // Most subscriptions end holding nothing: no call then.
        if taken.list != nil || !taken.resources.isEmpty { dispose(taken) }
    }
}

/// What a subscription holds on to, without an array for the usual single resource.
@usableFromInline
enum Resources: Sendable {
    /// Nothing yet.
    case none
    /// One resource (the common case: the upstream subscription).
    case one(any Disposable)
    /// Several.
    case many([any Disposable])
    /// Stopped: resources are disposed, and any added later at once.
    case stopped

    /// Whether there is nothing to dispose.
    @inlinable
    var isEmpty: Bool {
        switch self {
        case .none, .stopped: true
        case .one, .many: false
        }
    }
}

extension Subscriber {
    /// A new subscriber that forwards every event to this one: what an operator subscribes
    /// upstream with when it only adds behaviour around the subscription — disposing the new one
    /// cancels the upstream subscription without stopping this one.
    public var forwarder: Subscriber {
        Subscriber { [self] event in send(event) }
    }
}
