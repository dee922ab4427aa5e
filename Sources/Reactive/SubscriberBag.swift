import Synchronization

/// The subscribers of a hot signal, in subscription order.
///
/// Insertion and removal are O(1) amortized: removal leaves a tombstone, found through the
/// entry's ``BagToken`` (which remembers its index), and tombstones are compacted away once they
/// outnumber live entries — so 100,000 subscribers can come and go, oldest first or newest first,
/// without quadratic cost. Senders iterate a copy-on-write snapshot taken under the owner's lock, so
/// a send never holds the lock while calling out.
///
/// Not thread-safe by itself: the owner guards it, and every token of it, with its lock.
@usableFromInline
struct SubscriberBag<Element> {
    @usableFromInline typealias Entry = (element: Element?, token: BagToken)

    @usableFromInline private(set) var entries: ContiguousArray<Entry> = []
    @usableFromInline private(set) var count = 0

    @usableFromInline init() {}

    var isEmpty: Bool { count == 0 }

    /// Adds `element`, remembered by `token` (which removes it).
    mutating func insert(_ element: Element, token: BagToken) {
        token.index = entries.count
        entries.append((element, token))
        count += 1
    }

    /// Removes the element of `token` and returns it, or `nil` if it was already removed.
    @discardableResult
    mutating func remove(_ token: BagToken) -> Element? {
        let index = token.index
        guard index >= 0, index < entries.count, entries[index].token === token,
              let element = entries[index].element else { return nil }
        entries[index].element = nil
        token.index = -1
        count -= 1
        let tombstones = entries.count - count
        if tombstones > 32 && tombstones > count { compact() }
        return element
    }

    /// Removes and returns every element, in order.
    mutating func removeAll() -> [Element] {
        defer {
            for entry in entries { entry.token.index = -1 }
            entries = []
            count = 0
        }
        return entries.compactMap(\.element)
    }

    private mutating func compact() {
        entries.removeAll { $0.element == nil }
        for (index, entry) in entries.enumerated() { entry.token.index = index }
    }
}

/// Where an entry sits in its ``SubscriberBag`` (-1 once removed). Its index is read and written only
/// under the bag owner's lock, which is what makes this `@unchecked Sendable` sound. The
/// subscription's disposable is itself the token, so a subscription costs one object here.
@usableFromInline
class BagToken: @unchecked Sendable {
    fileprivate(set) var index = -1

    init() {}
}

/// A hot signal that keeps its subscribers in a ``SubscriberBag``.
protocol BagOwner: AnyObject, Sendable {
    /// Removes the subscriber that `token` stands for, if it is still there.
    func removeSubscriber(_ token: BagToken)
}

/// The disposable that removes one subscriber from a hot signal's bag: one small object per
/// subscription, acting at most once, and not keeping the signal alive.
final class BagSubscription: BagToken, Disposable, @unchecked Sendable {
    private weak let owner: (any BagOwner)?
    private let disposed = Atomic<Bool>(false)

    init(owner: any BagOwner) {
        self.owner = owner
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        owner?.removeSubscriber(self)
    }
}

extension SubscriberBag: Sendable where Element: Sendable {}
