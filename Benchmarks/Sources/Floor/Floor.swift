import Synchronization

// The floor: the least a reactive pipeline can cost — closures calling closures, a mutex on the
// subject's observer list, no completion, no errors, no disposal beyond removal. Nothing here is
// @inlinable, so the benchmark cannot see through it.

/// A hot source: a locked dictionary of observers.
public final class FloorSubject<Value>: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var observers: [UInt64: (Value) -> Void] = [:]
    private var nextID: UInt64 = 0

    public init() {}

    /// Adds an observer; returns its id for ``remove(_:)``.
    public func subscribe(_ observer: @escaping (Value) -> Void) -> UInt64 {
        lock.withLock { _ in
            nextID += 1
            observers[nextID] = observer
            return nextID
        }
    }

    public func remove(_ id: UInt64) {
        lock.withLock { _ in _ = observers.removeValue(forKey: id) }
    }

    public func send(_ value: Value) {
        let current = lock.withLock { _ in observers }
        for observer in current.values { observer(value) }
    }
}

/// `map` as a closure around a closure.
public func floorMap<A, B>(_ transform: @escaping (A) -> B, _ next: @escaping (B) -> Void) -> (A) -> Void {
    { next(transform($0)) }
}

/// `filter` as a closure around a closure.
public func floorFilter<A>(_ isIncluded: @escaping (A) -> Bool, _ next: @escaping (A) -> Void) -> (A) -> Void {
    { if isIncluded($0) { next($0) } }
}

/// `scan` as a closure with a box of state.
public func floorScan<A, R>(_ initial: R, _ combine: @escaping (R, A) -> R, _ next: @escaping (R) -> Void) -> (A) -> Void {
    final class Box { var value: R; init(_ value: R) { self.value = value } }
    let box = Box(initial)
    return {
        box.value = combine(box.value, $0)
        next(box.value)
    }
}

/// A cold source: iterates a range into an observer.
public func floorFrom(_ range: Range<Int>, _ observer: (Int) -> Void) {
    for value in range { observer(value) }
}

/// combineLatest of two sources: remembers each side's latest value.
public final class FloorCombineLatest<A, B> {
    private var a: A?
    private var b: B?
    private let next: ((A, B)) -> Void

    public init(_ next: @escaping ((A, B)) -> Void) {
        self.next = next
    }

    public func sendA(_ value: A) {
        a = value
        if let b { next((value, b)) }
    }

    public func sendB(_ value: B) {
        b = value
        if let a { next((a, value)) }
    }
}

/// switchToLatest: each new inner source replaces the previous one; inner sources here deliver
/// their value synchronously when started, as `Just` does.
public final class FloorSwitch<Value> {
    private var generation = 0
    private let next: (Value) -> Void

    public init(_ next: @escaping (Value) -> Void) {
        self.next = next
    }

    public func switchTo(_ start: (_ deliver: (Value) -> Void) -> Void) {
        generation += 1
        let current = generation
        start { value in if current == generation { next(value) } }
    }
}
