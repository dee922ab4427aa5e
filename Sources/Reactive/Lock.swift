#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value protected by a `pthread_mutex_t`, allocated together with it in one object.
///
/// Why not `Synchronization.Mutex`: on Linux it hands a contended lock over through a
/// priority-inheritance futex in the kernel, which ThreadSanitizer cannot see, so
/// `swift test --sanitize=thread` reported "Swift access race" on state that was in fact always
/// accessed under the lock (measured on Swift 6.3.1 in the subject and run-loop stress tests).
/// ThreadSanitizer intercepts pthread mutexes, so with this lock its reports mean real races.
///
/// The closure passed to ``withLock(_:)`` must not call out to code that could take the same lock
/// (a subscriber, say): every caller in this module copies what it needs out of the lock and calls
/// subscribers after unlocking. Public so that code built on the core can follow the same rule
/// with the same ThreadSanitizer visibility.
public struct Lock<State> {
    @usableFromInline let storage: LockStorage<State>

    /// Creates a lock protecting `initial`.
    public init(_ initial: State) {
        storage = LockStorage.make(initial)
    }

    /// Runs `body` with exclusive access to the state.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

/// Sendable when the state is: the lock is what makes sharing it between threads safe.
extension Lock: @unchecked Sendable where State: Sendable {}

@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    static func make(_ initial: State) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in initial }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    deinit {
        // The header (the state) is a stored property, destroyed by the runtime; only the
        // tail-allocated mutex is ours to tear down.
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
