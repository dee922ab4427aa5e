/// The subscribers of a hot signal, in subscription order.
///
/// Insertion is O(1) amortized; removal is O(log n) (a binary search by id) and leaves a tombstone,
/// compacted away once tombstones outnumber live entries, so removal stays cheap with 100,000 live
/// subscribers and disposal oldest-first is not quadratic. Senders iterate a copy-on-write snapshot
/// taken under the owner's lock, so a send never holds the lock while calling out.
///
/// Not thread-safe by itself: the owner guards it with its lock.
struct SubscriberBag<Element> {
    typealias Entry = (id: UInt64, element: Element?)

    private(set) var entries: ContiguousArray<Entry> = []
    private var nextID: UInt64 = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds `element` and returns the id that removes it.
    mutating func insert(_ element: Element) -> UInt64 {
        let id = nextID
        nextID &+= 1
        entries.append((id, element))
        count += 1
        return id
    }

    /// Removes the element with `id` and returns it, or `nil` if it was already removed.
    @discardableResult
    mutating func remove(id: UInt64) -> Element? {
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].id < id { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].id == id, let element = entries[low].element else { return nil }
        entries[low].element = nil
        count -= 1
        let tombstones = entries.count - count
        if tombstones > 32 && tombstones > count {
            entries.removeAll { $0.element == nil }
        }
        return element
    }

    /// Removes and returns every element, in order.
    mutating func removeAll() -> [Element] {
        defer { entries = []; count = 0 }
        return entries.compactMap(\.element)
    }
}
