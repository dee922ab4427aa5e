import Synchronization

// The floor's sources: the least a reactive source can cost — a mutex on the observer list, no
// completion, no errors, no disposal beyond removal. They live in a module of their own and are
// not @inlinable (and not generic), so the optimizer cannot see through them and fuse the floor's
// closure chain (written in the benchmark itself) into one straight loop.

/// A hot source of integers: a locked dictionary of observers.
public final class FloorSubject: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var observers: [UInt64: (Int) -> Void] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// Adds an observer; returns its id for ``remove(_:)``.
    public func subscribe(_ observer: @escaping (Int) -> Void) -> UInt64 {
        lock.withLock { _ in
            nextID += 1
            observers[nextID] = observer
            return nextID
        }
    }

    /// Removes an observer.
    public func remove(_ id: UInt64) {
        lock.withLock { _ in _ = observers.removeValue(forKey: id) }
    }

    /// Sends a value to every observer.
    @inline(never)
    public func send(_ value: Int) {
        let current = lock.withLock { _ in observers }
        for observer in current.values { observer(value) }
    }
}

/// A cold source: sends every value of `range` to `observer`. Never inlined, and the observer is
/// an escaping closure, so the caller's closure chain cannot be specialised into this loop.
@inline(never)
public func floorFrom(_ range: Range<Int>, _ observer: @escaping (Int) -> Void) {
    for value in range { observer(value) }
}
