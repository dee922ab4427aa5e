import Locking

/// A subject that replays past events to new subscribers: RAC's `RACReplaySubject`.
///
/// It keeps up to `capacity` of the latest values (`nil` for all of them) and its terminal event;
/// a new subscriber first receives those, in order, then live events. With capacity 0 it replays
/// only the terminal event.
///
/// Sends and replays are serialized, as RAC's `@synchronized` ones are: events sent from several
/// threads reach the subscribers one at a time, a replay is never interleaved with another thread's
/// live event, and so every subscriber sees the same order — live order equals replay order. The
/// delivery lock is re-entrant: a subscriber may send into the subject it receives from.
public final class ReplaySubject<Value: Sendable, Failure: Error>: SubjectProtocol {
    private let core: ReplayCore<Value, Failure>

    /// The subject as a signal: replays what it holds, then delivers live events. Made once.
    public let signal: Signal<Value, Failure>

    /// The subscriptions that feed this subject through ``SubjectProtocol/input``: disposed when it
    /// ends, and a feed added after that is disposed at once (RAC `didSubscribeWithDisposable:`).
    public let feeds = CompoundDisposable()

    /// The most values replayed, or `nil` for no limit.
    public var capacity: Int? { core.capacity }

    /// The number of current subscribers (for tests and diagnostics).
    public var subscriberCount: Int { core.count }

    /// Creates a replay subject keeping the latest `capacity` values (RAC `+replaySubjectWithCapacity:`);
    /// `nil` keeps all (RAC `RACReplaySubjectUnlimitedCapacity`).
    public init(capacity: Int? = nil) {
        precondition(capacity.map { $0 >= 0 } ?? true, "capacity must not be negative")
        let core = ReplayCore<Value, Failure>(capacity: capacity)
        self.core = core
        signal = Signal { subscriber in core.subscribe(subscriber) }
        if Inspection.isAnyThreadInspecting { core.reportHolding(feeds) }
    }

    /// Nothing can be sent once the subject is gone: its subscribers are let go (a later
    /// subscriber still gets the replay).
    deinit { core.detachAll() }

    /// Records and sends a value (RAC `sendNext:`).
    public func sendNext(_ value: Value) { core.sendNext(value) }

    /// Sends any event: a value to every current subscriber, or the end (RAC `sendError:`,
    /// `sendCompleted`), after which the subject takes nothing more and its feeds are disposed.
    public func send(_ event: Event<Value, Failure>) {
        send(event, endingWith: core.terminate(with:))
    }

    /// The values that a new subscriber would receive, oldest first.
    public var replayedValues: [Value] { core.withLock { _ in core.values } }

    /// The latest value recorded, if any is kept.
    var latestValue: Value? { core.withLock { _ in core.values.last } }
}

extension ReplaySubject: InspectableSubject {
    var inspectedList: ObjectIdentifier { ObjectIdentifier(core) }
}

/// A replay subject's values, terminal event and subscribers, shared by the subject and its
/// signal. `values`, `recorded` and `terminal` are guarded by the list's lock.
final class ReplayCore<Value: Sendable, Failure: Error>: SubscriberList, @unchecked Sendable {
    let capacity: Int?
    @exclusivity(unchecked) nonisolated(unsafe) var values: [Value] = []
    /// How many values were ever recorded: tells a replay which values arrived while it ran.
    @exclusivity(unchecked) nonisolated(unsafe) var recorded = 0
    @exclusivity(unchecked) nonisolated(unsafe) var terminal: Event<Value, Failure>?

    init(capacity: Int?) {
        self.capacity = capacity
        super.init(spins: false)
        if Inspection.isAnyThreadInspecting { Inspection.reportCreated(self, as: .replaySubject) }
    }

    /// Replays under the delivery lock, so no other thread's event can come between the replay and
    /// the live events. A value that the subscriber itself sends back during its replay (the lock is
    /// re-entrant) is recorded, and replayed to it in order before it joins.
    func subscribe(_ subscriber: Subscriber<Value, Failure>) -> (any Disposable)? {
        if subscriber.join(self) {
            delivery.withLock { replay(to: subscriber) }
        } else if let forwarder = forwarder(for: subscriber) {
            delivery.withLock { replay(to: forwarder) }
        }
        return nil
    }

    /// Delivers the values recorded so far, then any recorded meanwhile, then admits `member` to
    /// the live events (or sends it the terminal event). Called under the delivery lock.
    private func replay(to member: Subscriber<Value, Failure>) {
        var replayed = 0  // the `recorded` count that the replay has caught up with
        var batch: [Value] = []
        var ending: Event<Value, Failure>?
        repeat {
            for value in batch where !member.isStopped { member.sendNext(value) }
            batch = withLock { members -> [Value] in
                let unseen = min(recorded - replayed, values.count)
                replayed = recorded
                if unseen > 0 { return Array(values.suffix(unseen)) }
                if !admit(member, to: &members) { ending = terminal }
                return []
            }
        } while !batch.isEmpty
        if let ending { member.send(ending) }
    }

    func sendNext(_ value: Value) {
        delivery.withLock {
            let (entries, buffered) = withLock { members -> (ContiguousArray<Subscription?>, Int?) in
                guard !members.isClosed else { return ([], nil) }
                recorded += 1
                guard capacity != 0 else { return (members.entries, nil) }
                values.append(value)
                if let capacity, values.count > capacity {
                    values.removeFirst(values.count - capacity)
                }
                return (members.entries, values.count)
            }
            if let buffered, Inspection.isAnyThreadInspecting {
                Inspection.reportBuffered(self, count: buffered)
            }
            for entry in entries {
                guard let entry else { continue }
                unsafeDowncast(entry, to: Subscriber<Value, Failure>.self).sendNext(value)
            }
        }
    }

    func terminate(with event: Event<Value, Failure>) {
        delivery.withLock {
            let members = withLock { members -> [Subscription]? in
                guard !members.isClosed else { return nil }
                terminal = event
                members.isClosed = true
                return members.removeAll()
            }
            guard let members else { return }
            if Inspection.isAnyThreadInspecting { Inspection.reportDisposed(self) }
            for member in members { unsafeDowncast(member, to: Subscriber<Value, Failure>.self).send(event) }
        }
    }
}
