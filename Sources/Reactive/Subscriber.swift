import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives a signal's events: RAC's `RACSubscriber`, with the guarantees of its
/// `RACPassthroughSubscriber`.
///
/// - Nothing is delivered after a terminal event (`error` or `completed`) or after disposal.
/// - A terminal event or disposal disposes every resource added with ``add(_:)`` — the
///   subscription's disposable returned by the signal's subscribe closure among them — exactly once.
/// - Events to one subscriber must not be sent concurrently (RAC's contract, and Rx's): a signal
///   delivers them one at a time, from whatever thread produces them.
///
/// A subscriber is itself the ``Disposable`` that cancels its subscription.
public final class Subscriber<Value: Sendable, Failure: Error>: Disposable {
    @usableFromInline let observer: @Sendable (Event<Value, Failure>) -> Void
    @usableFromInline let stopped = Atomic<Bool>(false)
    /// The subscription's resources, guarded by `resourcesGuard` — a spin lock on one atomic flag
    /// instead of a mutex object, because every subscription has one and it is touched twice (on
    /// subscribe and on stop). Its acquire/release ordering is what ThreadSanitizer checks.
    @usableFromInline let resourcesGuard = Atomic<Bool>(false)
    @usableFromInline nonisolated(unsafe) var resourcesStorage = Resources.none

    /// Creates a subscriber that passes every event to `observer`.
    @inlinable
    public init(_ observer: @escaping @Sendable (Event<Value, Failure>) -> Void) {
        self.observer = observer
    }

    /// Creates a subscriber from separate closures, as RAC's `subscribeNext:error:completed:` does.
    @inlinable
    public convenience init(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) {
        self.init { event in
            switch event {
            case .next(let value): next?(value)
            case .error(let failure): error?(failure)
            case .completed: completed?()
            }
        }
    }

    /// Sends a value (RAC `sendNext:`), unless the subscriber has stopped.
    @inlinable
    public func sendNext(_ value: Value) {
        guard !stopped.load(ordering: .acquiring) else { return }
        observer(.next(value))
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

    /// Whether a terminal event was sent or the subscriber was disposed.
    @inlinable
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Whether the subscription was cancelled or ended (same as ``isStopped``).
    public var isDisposed: Bool { isStopped }

    /// Ties `disposable` to this subscription: it is disposed when the subscriber stops, or at once
    /// if it already has (RAC `didSubscribeWithDisposable:`).
    public func add(_ disposable: any Disposable) {
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
    public func dispose() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        releaseResources()
    }

    @usableFromInline
    func terminate(with event: Event<Value, Failure>) {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        observer(event)
        releaseResources()
    }

    /// Runs `body` with the resources, holding the spin lock (never while calling out).
    @usableFromInline
    func withResources<Result>(_ body: (inout Resources) -> Result) -> Result {
        var spins = 0
        while !resourcesGuard.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            spins += 1
            if spins > 64 { sched_yield() }
        }
        defer { resourcesGuard.store(false, ordering: .releasing) }
        return body(&resourcesStorage)
    }

    @usableFromInline
    func releaseResources() {
        let taken = withResources { resources -> Resources in
            defer { resources = .stopped }
            return resources
        }
        switch taken {
        case .one(let disposable): disposable.dispose()
        case .many(let all): all.forEach { $0.dispose() }
        case .none, .stopped: break
        }
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
