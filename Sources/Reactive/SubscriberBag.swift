import Locking
import Synchronization

/// The subscriptions of a hot signal, in subscription order.
///
/// Insertion and removal are O(1) amortized: removal leaves a tombstone, found through the
/// subscription's `listIndex`, and tombstones are compacted away once they outnumber live entries
/// — so 100,000 subscribers can come and go, oldest first or newest first, without quadratic cost.
/// A send iterates `entries` as they were when it began, outside the owner's lock, so it never
/// holds the lock while calling out: a subject's outermost send pins the storage (``pinned``)
/// instead of taking a reference to it, and a change made meanwhile first moves that storage to
/// ``retired``, so that the change copies it rather than writing into it. Other sends (a replay
/// subject's, or one made from inside a send) take a copy-on-write snapshot, a reference.
///
/// Not generic: its entries are ``Subscription``s (the subject's subscribers themselves), which
/// the owner downcasts when it sends. Not thread-safe by itself: its
/// ``SubscriberList`` guards it, and every member's `listIndex`, with its lock.
@usableFromInline
struct SubscriberBag: Sendable {
    @usableFromInline private(set) var entries: ContiguousArray<Subscription?> = []
    @usableFromInline private(set) var count = 0
    /// Set when the owner has sent its terminal event: nothing joins after that.
    @usableFromInline var isClosed = false
    /// Set when the owner (the subject object) is gone: nothing can be sent any more, so nothing
    /// joins, and the members were let go.
    @usableFromInline var isDetached = false
    /// The address of the storage that a send iterates without a reference (``SubscriberList/pin``,
    /// read when the lock is taken), or 0.
    @usableFromInline var pinned: UInt = 0
    /// Storages of `entries` kept for sends in progress (see ``pinned``), until one of them, or the
    /// next send, takes them out of the lock to release them.
    @usableFromInline private(set) var retired: [ContiguousArray<Subscription?>] = []
    /// Set when a change retired a storage since the lock was taken (for ``SubscriberList/hasRetired``).
    @usableFromInline var hasNewlyRetired = false

    @usableFromInline init() {}

    /// The address of `entries`' storage, as a send pins it.
    @inlinable
    var storageAddress: UInt {
        entries.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Called before every change to `entries`: keeps a pinned storage as it is.
    private mutating func preservePinnedStorage() {
        guard pinned != 0, pinned == storageAddress else { return }
        retired.append(entries)  // the storage now has two references: a change copies it
        hasNewlyRetired = true
    }

    /// Takes the retired storages out, when no send iterates any: to be released after unlocking.
    @usableFromInline
    mutating func takeRetired() -> [ContiguousArray<Subscription?>] {
        guard pinned == 0, !retired.isEmpty else { return [] }
        defer { retired = [] }
        return retired
    }

    /// Adds `member` at the end.
    mutating func insert(_ member: Subscription) {
        preservePinnedStorage()
        member.listIndex = entries.count
        entries.append(member)
        count += 1
    }

    /// Removes `member`, if it is still here.
    mutating func remove(_ member: Subscription) {
        let index = member.listIndex
        guard index >= 0, index < entries.count, entries[index] === member else { return }
        preservePinnedStorage()
        entries[index] = nil
        member.listIndex = -1
        count -= 1
        let tombstones = entries.count - count
        if tombstones > 32 && tombstones > count { compact() }
    }

    /// Removes and returns every member, in order.
    mutating func removeAll() -> [Subscription] {
        preservePinnedStorage()
        let members = entries.compactMap { $0 }
        for member in members { member.listIndex = -1 }
        entries = []
        count = 0
        return members
    }

    private mutating func compact() {
        entries.removeAll { $0 == nil }
        for (index, member) in entries.enumerated() { member?.listIndex = index }
    }
}

/// A hot signal's list of subscriptions and the lock that guards it: the non-generic base of
/// ``SubjectCore`` and ``ReplayCore``. A subscription leaves it through ``remove(_:)`` when it
/// stops — the same compiled code for every value type, so no generic metadata is looked up.
///
/// Members hold their list strongly while they are in it (a weak reference would give the list a
/// side table, which makes every retain and release of it take the slow path). The cycle this
/// makes is broken when a member leaves, when the subject ends, or when the subject object is
/// released (``detachAll()``): after that nothing can be sent, so nothing is lost.
@usableFromInline
class SubscriberList: @unchecked Sendable {
    @usableFromInline let word: UnsafeMutablePointer<MutexWord.Word>
    /// Whether `word` is a spin lock (``SpinWord``: a subject, whose critical sections only copy,
    /// add or remove members) or a mutex (``MutexWord``: a replay subject, which also copies and
    /// trims its history under it).
    @usableFromInline let spins: Bool
    /// Held while events are delivered (never while the list is changed): senders on several
    /// threads take turns, so each member receives one event at a time, in one order for all
    /// members (RAC's `@synchronized` in `RACSubscriber` and `RACReplaySubject`). Re-entrant: a
    /// member that sends back into its subject is served at once.
    @usableFromInline let delivery = ReentrantLock()
    /// Guarded by `word`.
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var bag = SubscriberBag()
    /// The address of the bag's storage that the outermost send in progress iterates, or 0: set
    /// under the lock, cleared without it once the send is done (release), read under the lock
    /// into the bag (acquire), so a change that sees 0 knows that send's reads are over.
    @usableFromInline let pin = Atomic<UInt>(0)
    /// Set under the lock when a change retired a pinned storage: the send that pinned it takes
    /// the lock once more at its end to release it, instead of keeping it (and the members that
    /// left meanwhile) until the next send.
    @usableFromInline let hasRetired = Atomic<Bool>(false)

    @usableFromInline init(spins: Bool) {
        self.spins = spins
        word = MutexWord.allocate()
    }

    deinit {
        MutexWord.deallocate(word)
        if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) }
    }

    /// Reports that this list's subject holds `feeds`, the subscriptions that feed it.
    final func reportHolding(_ feeds: CompoundDisposable) {
        Inspection.reportAdded(feeds, to: self)
    }

    /// Runs `body` with the members, under the lock (which must not be held while calling out).
    @inlinable
    final func withLock<Result>(_ body: (inout SubscriberBag) -> Result) -> Result {
        if spins { SpinWord.lock(word) } else { MutexWord.lock(word) }
        defer { if spins { SpinWord.unlock(word) } else { MutexWord.unlock(word) } }
        bag.pinned = pin.load(ordering: .acquiring)
        defer {
            if bag.hasNewlyRetired {
                bag.hasNewlyRetired = false
                hasRetired.store(true, ordering: .relaxed)
            }
        }
        return body(&bag)
    }

    /// The member through which `subscriber` joins this list when it cannot join itself (see
    /// ``Subscription/join(_:)``, which owners try first: a subscriber joins itself unless it is
    /// already a member of another hot signal's list): a forwarder that it owns (disposing the
    /// subscriber disposes the forwarder). `nil` if the subscriber has stopped.
    final func forwarder<Value, Failure>(for subscriber: Subscriber<Value, Failure>) -> Subscriber<Value, Failure>? {
        if subscriber.isStopped { return nil }
        let forwarder = Subscriber<Value, Failure> { [subscriber] event in subscriber.send(event) }
        subscriber.add(forwarder)
        return forwarder.join(self) ? forwarder : nil
    }

    /// Adds `member` (the subscriber that joined, or its ``forwarder(for:)``) unless the owner has ended or is gone, or the member
    /// has stopped meanwhile (it left, finding nothing, so it must not be added). Call under the
    /// lock. Returns whether the owner is still live.
    final func admit(_ member: Subscription, to members: inout SubscriberBag) -> Bool {
        guard !members.isClosed else { return false }
        if !member.isStopped && !members.isDetached { members.insert(member) }
        return true
    }

    /// Releases the storages retired while sends iterated them (see ``SubscriberBag/pinned``), if
    /// no send iterates one now; called by a send that found ``hasRetired`` set at its end.
    @usableFromInline
    @inline(never)
    final func releaseRetired() {
        let retired = withLock { bag -> [ContiguousArray<Subscription?>] in
            guard bag.pinned == 0 else { return [] }
            hasRetired.store(false, ordering: .relaxed)
            return bag.takeRetired()
        }
        _ = retired  // released here, outside the lock: members that left may go with it
    }

    /// Removes `member` if it is still in the list.
    final func remove(_ member: Subscription) {
        withLock { $0.remove(member) }
    }

    /// The number of members.
    final var count: Int { withLock { $0.count } }

    /// Lets every member go, for good: called when the subject object is released, after which
    /// nothing can be sent to them.
    final func detachAll() {
        let members = withLock { bag -> [Subscription] in
            bag.isDetached = true
            return bag.removeAll()
        }
        for member in members { member.leave(self) }
    }
}
