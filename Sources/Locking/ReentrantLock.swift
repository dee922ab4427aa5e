#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A re-entrant mutex that serializes *delivery*: RAC's `@synchronized`, which `RACSubscriber`
/// and `RACReplaySubject` take around `sendNext:`.
///
/// It is held while calling out (to subscribers), which ``Lock`` must never be: a thread that
/// holds it may take it again (a subscriber sending back into the subject it receives from is
/// served at once, as with `@synchronized`), and every other thread waits its turn, so events
/// reach each subscriber one at a time and in one order. State is never kept under it — that is
/// ``Lock``'s job, which stays non-re-entrant and error-checking.
///
/// Like any lock held while calling out, two of them taken in opposite orders on two threads
/// deadlock (as two `@synchronized` subscribers do in RAC): a subscriber must not wait for
/// another thread that is sending into the same subject.
public final class ReentrantLock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates an unlocked lock.
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock; `body` may call out, and may take this lock again.
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        PthreadMutex.lock(mutex)
        defer { PthreadMutex.unlock(mutex) }
        return try body()
    }
}
