import Synchronization

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
    /// The subscription's resources; `nil` once stopped.
    @usableFromInline let resources = Lock<[any Disposable]?>([])

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
        let added = resources.withLock { resources -> Bool in
            guard resources != nil else { return false }
            resources!.append(disposable)
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

    @usableFromInline
    func releaseResources() {
        let taken = resources.withLock { resources -> [any Disposable]? in
            defer { resources = nil }
            return resources
        }
        taken?.forEach { $0.dispose() }
    }
}
