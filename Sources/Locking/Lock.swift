import Synchronization

/// A value protected by a mutex (``MutexWord``), allocated together with it in one object: the one
/// lock type of this package (`Reactive`, `MicroHTTP`, the playground and the tests all use it;
/// Reactive's DocC article Internals, "Locks", lists the hot paths in `Reactive` that take a
/// ``SpinLock`` instead, and why).
///
/// Why not `Synchronization.Mutex` or `NSLock`: see ``MutexWord`` (ThreadSanitizer cannot follow
/// the first's handover; the second is a `pthread_mutex_t`, five times the instructions, behind one
/// more object).
///
/// In debug builds, taking the lock again on the thread that holds it stops the program with a
/// message instead of deadlocking.
///
/// The closure passed to ``withLock(_:)`` must not call out to code that could take the same lock
/// (a subscriber, say): copy what is needed out of the lock and call out after unlocking.
public struct Lock<State> {
    @usableFromInline let storage: LockStorage<State>

    /// Creates a lock protecting `initial`.
    public init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, word in
            MutexWord.lock(word)
            defer { MutexWord.unlock(word) }
            return try body(&state.pointee)
        }
    }
}

/// Sendable when the state is: the lock is what makes sharing it between threads safe.
extension Lock: @unchecked Sendable where State: Sendable {}

@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, MutexWord.Word> {
    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { MutexWord.initialize($0) }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    deinit {
        // The header (the state) is a stored property, destroyed by the runtime; only the
        // tail-allocated word is ours to tear down.
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }
}
