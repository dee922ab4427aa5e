import Synchronization

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
    @usableFromInline let word: UnsafeMutablePointer<MutexWord.Word>
    /// The thread holding the lock (its `pthread_self()`), or 0. Only the holder writes its own
    /// identity here, so a thread that reads its own identity — even relaxed — holds the lock.
    @usableFromInline let owner = Atomic<UInt>(0)

    /// Creates an unlocked lock.
    ///
    /// Re-entry is recognised here, in front of an ordinary mutex (``MutexWord``), rather than with
    /// a `PTHREAD_MUTEX_RECURSIVE` one: glibc's recursive path cost 72 instructions a lock and
    /// unlock (callgrind), a subject's whole send path 78 more than before it.
    public init() {
        word = MutexWord.allocate()
    }

    deinit { MutexWord.deallocate(word) }

    /// Runs `body` holding the lock; `body` may call out, and may take this lock again.
    @inlinable
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        let me = ThreadIdentity.current
        // Taken again by its holder: nothing to count, as the outermost call releases it.
        if owner.load(ordering: .relaxed) == me { return try body() }
        MutexWord.lock(word)
        owner.store(me, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            MutexWord.unlock(word)
        }
        return try body()
    }
}
