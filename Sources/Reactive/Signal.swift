/// A cold stream of events: RAC's `RACSignal` as made by `+createSignal:` (`RACDynamicSignal`).
///
/// A signal does nothing until subscribed; its subscribe closure runs once per subscription, on the
/// subscribing thread. RAC 2.x subscribes on the current scheduler, or on a background
/// "subscription scheduler" when there is none; a server has no main thread to speak of, so here
/// subscription is always immediate and synchronous. Use `subscribe(on:)` to move it elsewhere.
public struct Signal<Value: Sendable, Failure: Error>: Sendable {
    /// What a subscription runs: it sends events to the subscriber and returns what cancels it.
    public typealias SubscribeHandler = @Sendable (Subscriber<Value, Failure>) -> (any Disposable)?

    @usableFromInline let handler: SubscribeHandler

    /// The value of a signal made by ``just(_:)``, which sends it and completes as soon as it is
    /// subscribed; `nil` for any other signal. RAC keeps `+return:`'s signals apart too, as
    /// `RACReturnSignal`: making one allocates nothing (its handler captures nothing), and an
    /// operator that would subscribe to one only to forward its value — the flattening operators —
    /// may deliver this instead (RxJava calls such a signal a scalar source).
    @usableFromInline let justValue: Value?

    /// What a synchronous sequence's signal runs (``from(_:)``), and a `map` or `filter` of one:
    /// it sends each value to `sink` while `stop` (the subscription's final subscriber) has not
    /// stopped, and answers whether it ran to the end. A `map` or `filter` of such a signal fuses
    /// its stage into this loop instead of subscribing a subscriber of its own: one loop, each
    /// stage still looking whether the subscription stopped before it hands a value on, as its
    /// own subscriber would (RAC's `map:` does not call its block once disposed). `nil` for every
    /// other signal: anything that subscribes it (a probe, `subscribe(on:)`) sees a plain signal.
    @usableFromInline let loop: Loop?

    /// The body of a fused synchronous sequence: what a signal made by `Signal.from` of a `Sequence` runs.
    public typealias Loop = @Sendable (_ stop: Subscription, _ sink: (Value) -> Void) -> Bool

    /// A name for debugging and for labelling pipeline stages (RAC `name`, set with
    /// `setNameWithFormat:`). Empty unless set with ``named(_:)``.
    public internal(set) var name = ""

    /// Creates a cold signal whose `subscribe` closure runs once for every subscriber
    /// (RAC `+createSignal:`). The disposable it returns is disposed when the subscription ends,
    /// whether by a terminal event or by disposal.
    @inlinable
    public init(_ subscribe: @escaping SubscribeHandler) {
        handler = subscribe
        justValue = nil
        loop = nil
    }

    @inlinable
    init(just value: Value) {
        handler = { _ in nil }
        justValue = value
        loop = nil
    }

    /// A synchronous sequence's signal: each subscription runs `loop`, then completes if it ran
    /// to the end.
    @inlinable
    init(loop: @escaping Loop) {
        handler = { subscriber in
            if loop(subscriber, { subscriber.deliverNext($0) }) { subscriber.sendCompleted() }
            return nil
        }
        justValue = nil
        self.loop = loop
    }

    /// The same signal with `name` (RAC `setNameWithFormat:`).
    public func named(_ name: String) -> Signal {
        var copy = self
        copy.name = name
        return copy
    }

    /// Subscribes `subscriber` and returns it as the disposable that cancels the subscription.
    @inlinable
    @discardableResult
    public func subscribe(_ subscriber: Subscriber<Value, Failure>) -> any Disposable {
        if let value = justValue {
            subscriber.sendNext(value)
            subscriber.sendCompleted()
        } else if let disposable = handler(subscriber) {
            subscriber.add(disposable)
        }
        return subscriber
    }

    /// Subscribes `upstream` on behalf of `downstream`, an operator's own subscriber: `downstream`
    /// holds it before this signal starts, so when `downstream` stops — even while this signal is
    /// still sending synchronously inside `subscribe`, as `Signal.from(0...)` does — `upstream` is
    /// disposed and the source sees it stop (RAC sets the subscriber's disposable before the source
    /// runs). Returns `nil`: there is nothing left for the operator's handler to hand back.
    @inlinable
    public func subscribe<DownstreamValue, DownstreamFailure>(
        _ upstream: Subscriber<Value, Failure>,
        for downstream: Subscriber<DownstreamValue, DownstreamFailure>
    ) -> (any Disposable)? {
        downstream.add(upstream)
        subscribe(upstream)
        return nil
    }

    /// Subscribes with a closure per kind of event (RAC `subscribeNext:error:completed:`) and returns
    /// the disposable that cancels the subscription.
    @inlinable
    @discardableResult
    public func subscribe(
        next: (@Sendable (Value) -> Void)? = nil,
        error: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> any Disposable {
        subscribe(Subscriber(next: next, error: error, completed: completed))
    }

}

extension Signal {
    /// A signal that sends `value` and completes (RAC `+return:`).
    @inlinable
    public static func just(_ value: Value) -> Signal {
        Signal(just: value)
    }

    /// A signal that completes at once (RAC `+empty`).
    public static var empty: Signal {
        Signal { subscriber in
            subscriber.sendCompleted()
            return nil
        }
    }

    /// A signal that fails at once with `error` (RAC `+error:`).
    public static func failure(_ error: Failure) -> Signal {
        Signal { subscriber in
            subscriber.sendError(error)
            return nil
        }
    }

    /// A signal that never sends anything (RAC `+never`).
    public static var never: Signal {
        Signal { _ in nil }
    }

    /// A signal that makes a new signal for every subscription (RAC `+defer:`).
    public static func deferred(_ makeSignal: @escaping @Sendable () -> Signal) -> Signal {
        Signal { subscriber in
            makeSignal().subscribe(subscriber)
            return nil
        }
    }

    /// A signal that sends every element of `sequence` and completes (RAC `-[NSArray rac_sequence].signal`).
    /// Disposing the subscription stops the iteration.
    @inlinable
    public static func from<S: Sequence & Sendable>(_ sequence: S) -> Signal where S.Element == Value {
        Signal(loop: { stop, sink in
            for value in sequence {
                if stop.isStopped { return false }
                sink(value)
            }
            return true
        })
    }
}
