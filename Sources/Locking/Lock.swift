#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value protected by a `pthread_mutex_t`, allocated together with it in one object: the one
/// lock type of this package (`Reactive`, `MicroHTTP`, the playground and the tests all use it;
/// docs/ARCHITECTURE.md lists the two hot paths in `Reactive` that keep a lighter guard, and why).
///
/// Why not `Synchronization.Mutex`: on Linux it hands a contended lock over through a
/// priority-inheritance futex in the kernel, which ThreadSanitizer cannot see, so
/// `swift test --sanitize=thread` reported "Swift access race" on state that was in fact always
/// accessed under the lock (measured on Swift 6.3.1 in the subject, run-loop and connection-watch
/// stress tests). ThreadSanitizer intercepts pthread mutexes, so with this lock its reports mean
/// real races. Why not `NSLock`: it is the same pthread mutex behind an Objective-C-style API and
/// one more allocation.
///
/// In debug builds the mutex is error-checking (`PTHREAD_MUTEX_ERRORCHECK`): taking it again on
/// the thread that holds it stops the program with a message instead of deadlocking.
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
        try storage.withUnsafeMutablePointers { state, mutex in
            PthreadMutex.lock(mutex)
            defer { PthreadMutex.unlock(mutex) }
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
        buffer.withUnsafeMutablePointerToElements { PthreadMutex.initialize($0) }
        return unsafeDowncast(buffer, to: LockStorage.self)
    }

    deinit {
        // The header (the state) is a stored property, destroyed by the runtime; only the
        // tail-allocated mutex is ours to tear down.
        withUnsafeMutablePointerToElements { PthreadMutex.destroy($0) }
    }
}

/// The operations on a `pthread_mutex_t` that ``Lock`` is made of, for the one type that must
/// keep its mutex inline (`Reactive`'s subscriber list, see docs/ARCHITECTURE.md): the same
/// initialisation (error-checking in debug builds) and the same checks.
public enum PthreadMutex {
    /// Initialises the mutex at `mutex` (uninitialised memory).
    public static func initialize(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        mutex.initialize(to: pthread_mutex_t())
        #if DEBUG
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        pthread_mutex_init(mutex, nil)
        #endif
    }

    /// Destroys the mutex at `mutex`, leaving the memory uninitialised.
    public static func destroy(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
    }

    /// Takes the mutex; in debug builds, taking it twice on one thread stops the program.
    @inlinable
    public static func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        let result = pthread_mutex_lock(mutex)
        assert(result == 0, "pthread_mutex_lock failed (\(result)): a lock taken again on the thread that holds it")
    }

    /// Releases the mutex; in debug builds, releasing one this thread does not hold stops the program.
    @inlinable
    public static func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        let result = pthread_mutex_unlock(mutex)
        assert(result == 0, "pthread_mutex_unlock failed (\(result)): a lock released by a thread that does not hold it")
    }
}
