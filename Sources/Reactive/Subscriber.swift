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
    @usableFromInline let stopped = Atomic<Bool>(false)
    /// Guards `resourcesStorage` and `list`: a spin lock on one atomic flag instead of a mutex
    /// object, because every subscription has one and takes it only on subscribe and on stop. Its
    /// acquire/release ordering is what ThreadSanitizer checks.
    @usableFromInline let resourcesGuard = Atomic<Bool>(false)
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var resourcesStorage = Resources.none
    /// The hot signal whose list holds this subscription, if any (see ``SubscriberList`` on why
    /// it is strong): retained by hand while set, so that leaving costs exactly one release (a
    /// strong optional moved out and used still cost a retain and release more, on every
    /// dispose). Guarded by `resourcesGuard`.
    @exclusivity(unchecked) nonisolated(unsafe) var list: Unmanaged<SubscriberList>?
    /// The subscription's index in `list`'s entries (-1 when in none). Guarded by that list's lock.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var listIndex = -1

    @usableFromInline init() {}

    deinit {
        // Still set only if the list was gone before this subscription could be added to it.
        list?.release()
    }

    /// Whether a terminal event was sent or the subscription was disposed.
    @inlinable
    public final var isStopped: Bool { stopped.load(ordering: .acquiring) }

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
        if !added { disposable.dispose() }
    }

    /// Cancels the subscription: no further events are delivered and its resources are disposed.
    public final func dispose() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        releaseResources()
    }

    /// Makes `list` this subscription's list, unless it has stopped or belongs to a list already
    /// (a subscriber subscribed to two subjects joins the second through a forwarder).
    final func join(_ list: SubscriberList) -> Bool {
        withResources { resources -> Bool in
            if case .stopped = resources { return false }
            guard self.list == nil else { return false }
            self.list = .passRetained(list)
            return true
        }
    }

    /// Forgets `list`, which has let this subscription go.
    final func leave(_ list: SubscriberList) {
        let left = withResources { _ -> Unmanaged<SubscriberList>? in
            guard self.list?.toOpaque() == Unmanaged.passUnretained(list).toOpaque() else { return nil }
            return self.list.take()
        }
        left?.release()  // outside the spin lock: it may be the last reference
    }

    /// Runs `body` with the resources, holding the spin lock (never while calling out).
    @usableFromInline
    final func withResources<Result>(_ body: (inout Resources) -> Result) -> Result {
        var spins = 0
        while !resourcesGuard.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            spins += 1
            if spins > 64 { sched_yield() }
        }
        defer { resourcesGuard.store(false, ordering: .releasing) }
        return body(&resourcesStorage)
    }

    /// Disposes the resources and leaves the list, once; called after `stopped` was set.
    @usableFromInline
    final func releaseResources() {
        // Moved out, not copied: a copy would retain what the assignment then releases.
        let (taken, list) = withResources { resources -> (Resources, Unmanaged<SubscriberList>?) in
            var taken = Resources.stopped
            swap(&taken, &resources)
            return (taken, self.list.take())
        }
        if let list {
            list._withUnsafeGuaranteedRef { $0.remove(self) }
            list.release()
        }
        switch taken {
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
        guard !stopped.load(ordering: .acquiring) else { return }
        // Optional chaining calls the stored closure in place; `if let` would retain a copy.
        if observe != nil {
            observe?(.next(value))
        } else if observeWithSubscriber != nil {
            observeWithSubscriber?(self, .next(value))
        } else {
            next?(value)
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
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        if observe != nil {
            observe?(event)
        } else if observeWithSubscriber != nil {
            observeWithSubscriber?(self, event)
        } else if case .error(let failure) = event {
            error?(failure)
        } else if case .completed = event {
            completed?()
        }
        releaseResources()
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
}

extension Subscriber {
    /// A new subscriber that forwards every event to this one: what an operator subscribes
    /// upstream with when it only adds behaviour around the subscription — disposing the new one
    /// cancels the upstream subscription without stopping this one.
    public var forwarder: Subscriber {
        Subscriber { [self] event in send(event) }
    }
}
