import Locking
import Synchronization

/// A hot signal that you send events into by hand: RAC's `RACSubject`.
///
/// Events go to the subscribers present at the time of sending, in subscription order.
///
/// **Differs from RAC:** a `RACSubject` forgets that it ended, so a late subscriber waits forever (a
/// known trap). This subject remembers its terminal event: a subscriber arriving after completion or
/// an error receives that event at once.
///
/// Thread safety: every method may be called from any thread. Sends are serialized, as RAC's
/// `@synchronized` sends are: events sent from several threads at once reach the subscribers one at
/// a time, each event to every subscriber before the next begins. The delivery lock is re-entrant,
/// so a subscriber may send into the subject it receives from: the nested event is delivered at
/// once, before the outer send reaches the remaining subscribers. The subject's own state is never
/// locked while a subscriber runs, so subscribing and disposing never wait for a delivery.
public final class Subject<Value: Sendable, Failure: Error>: Sendable {
    @usableFromInline let core: SubjectCore<Value, Failure>

    /// The subject as a signal to subscribe to. Made once; it keeps the subject's subscriber list
    /// alive, not the subject itself.
    public let signal: Signal<Value, Failure>

    /// The subscriptions that feed this subject through ``SubjectProtocol/input``: disposed when it
    /// ends, and a feed added after that is disposed at once (RAC `didSubscribeWithDisposable:`).
    public let feeds = CompoundDisposable()

    /// Creates a subject with no subscribers (RAC `+subject`).
    public init() {
        let core = SubjectCore<Value, Failure>()
        self.core = core
        signal = Signal { subscriber in core.subscribe(subscriber) }
        if Inspection.isAnyThreadInspecting { core.reportHolding(feeds) }
    }

    /// Nothing can be sent once the subject is gone: its subscribers are let go.
    deinit { core.detachAll() }

    /// Sends a value to every current subscriber (RAC `sendNext:`).
    @inlinable
    public func sendNext(_ value: Value) { core.sendNext(value) }

    /// Sends any event: a value to every current subscriber, or the end (RAC `sendError:`,
    /// `sendCompleted`), after which the subject takes nothing more and its feeds are disposed.
    public func send(_ event: Event<Value, Failure>) {
        send(event, endingWith: core.terminate(with:))
    }

    /// The number of current subscribers.
    public var subscriberCount: Int { core.count }
}

extension Subject: InspectableSubject {
    var inspectedList: ObjectIdentifier { ObjectIdentifier(core) }
}

/// A subject's subscribers and terminal event, shared by the subject and its signal. The
/// subscribers themselves are the list's members: a subscription costs no other object.
@usableFromInline
final class SubjectCore<Value: Sendable, Failure: Error>: SubscriberList, @unchecked Sendable {
    /// The terminal event, once sent. Written once, under the list's lock, before `isClosed`.
    @exclusivity(unchecked) nonisolated(unsafe) var terminal: Event<Value, Failure>?

    init() {
        super.init(spins: true)
        if Inspection.isAnyThreadInspecting { Inspection.reportCreated(self, as: .subject) }
    }

    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> (any Disposable)? {
        // The subscriber itself, in the common case, is admitted as the caller's reference: a
        // member returned from a function would cost a retain and a release per subscription.
        if subscriber.join(self) {
            admit(subscriber)
        } else if let forwarder = forwarder(for: subscriber) {
            admit(forwarder)
        }
        return nil
    }

    private func admit(_ member: Subscriber<Value, Failure>) {
        let isLive = withLock { admit(member, to: &$0) }
        if !isLive { sendTerminal(to: member) }
    }

    /// Sends the terminal event to a subscriber that came after it. Apart from ``subscribe(_:)``
    /// so that the usual subscription never touches `terminal`: unspecialised code copying an
    /// `Event<Value, Failure>?` looks up its type metadata first, and that lookup, hoisted to the
    /// start of `subscribe`, was a fifth of a subscribe and dispose.
    @inline(never)
    private func sendTerminal(to member: Subscriber<Value, Failure>) {
        // `terminal` was written before `isClosed`, under the lock the caller took, and never changes.
        if let terminal { member.send(terminal) }
    }

    @inlinable
    func sendNext(_ value: Value) {
        delivery.withLock { deliver(value) }
    }

    @inlinable
    func deliver(_ value: Value) {
        // The outermost send pins the storage it iterates instead of taking a reference to it
        // (SubscriberBag.pinned): two atomic operations fewer per send. The storage keeps every
        // entry alive until the loop ends, so each is called without a retain and release of its own.
        let pinned = withLock { bag -> UnsafeBufferPointer<Subscription?>? in
            guard bag.pinned == 0 else { return nil }
            guard bag.count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            let members = bag.entries.withUnsafeBufferPointer { $0 }
            pin.store(UInt(bitPattern: members.baseAddress), ordering: .relaxed)
            return members
        }
        guard let pinned else {
            deliverToSnapshot(value)
            return
        }
        guard pinned.baseAddress != nil else { return }  // no members
        deliver(value, to: pinned)
        pin.store(0, ordering: .releasing)
        if hasRetired.load(ordering: .acquiring) { releaseRetired() }
    }

    /// A send from inside a send, whose storage is pinned already: iterates a snapshot, a
    /// reference to the storage.
    @usableFromInline
    @inline(never)
    func deliverToSnapshot(_ value: Value) {
        let entries = withLock { $0.entries }
        entries.withUnsafeBufferPointer { deliver(value, to: $0) }
    }

    @inlinable
    func deliver(_ value: Value, to entries: UnsafeBufferPointer<Subscription?>) {
        entries.withMemoryRebound(to: Unmanaged<Subscription>?.self) { members in
            for member in members {
                member?._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Subscriber<Value, Failure>.self).sendNext(value) }
            }
        }
    }

    func terminate(with event: Event<Value, Failure>) {
        delivery.withLock { deliverTerminal(event) }
    }

    private func deliverTerminal(_ event: Event<Value, Failure>) {
        let subscribers = withLock { members -> [Subscription]? in
            guard !members.isClosed else { return nil }
            terminal = event
            members.isClosed = true
            return members.removeAll()
        }
        guard let subscribers else { return }
        if Inspection.isAnyThreadInspecting { Inspection.reportDisposed(self) }
        for subscriber in subscribers {
            unsafeDowncast(subscriber, to: Subscriber<Value, Failure>.self).send(event)
        }
    }
}
