/// A value protected by a spin lock (``SpinWord``), allocated together with it in one object:
/// ``Lock`` for the shortest critical sections of the hottest paths, where its release, a plain
/// store, saves an atomic operation each time (Reactive's DocC article Internals, "Locks", lists
/// where it is used).
///
/// The closure passed to ``withLock(_:)`` must be short and must not call out, block or take
/// another lock: a thread waiting for it spins. In debug builds, taking the lock again on the
/// thread that holds it stops the program with a message instead of spinning for ever.
public struct SpinLock<State> {
    @usableFromInline let storage: LockStorage<State>

    /// Creates a lock protecting `initial`.
    public init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, word in
            SpinWord.lock(word)
            defer { SpinWord.unlock(word) }
            return try body(&state.pointee)
        }
    }
}

/// Sendable when the state is: the lock is what makes sharing it between threads safe.
extension SpinLock: @unchecked Sendable where State: Sendable {}
