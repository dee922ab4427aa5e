import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spin lock in one 32-bit word, for critical sections of a few dozen instructions that never
/// call out: the mechanism under ``SpinLock`` and `Reactive`'s subscriber lists.
///
/// Taking it is one compare-and-exchange (acquire), as with ``MutexWord``; releasing it is a plain
/// store (release), where a mutex must exchange the word to learn whether a thread sleeps on it.
/// That is one atomic read-modify-write fewer per critical section — the most frequent ones of the
/// reactive core, two to four for every value delivered. A thread that finds it taken retries, and
/// after 64 tries yields its core each time, so that on two cores a holder that was preempted gets
/// to run (``MutexWord`` never spins: see there for why a mutex should not).
///
/// In debug builds the word holds the holder's tag, so a lock taken again on the thread that holds
/// it stops the program with a message instead of spinning for ever.
public enum SpinWord {
    /// Takes the lock, spinning (then yielding) while another thread holds it.
    @inlinable
    public static func lock(_ word: UnsafeMutablePointer<MutexWord.Word>) {
        let tag = MutexWord.holderTag
        if word.pointee.compareExchange(expected: 0, desired: tag, ordering: .acquiring).exchanged { return }
        lockContended(word, tag: tag)
    }

    /// Releases the lock.
    @inlinable
    public static func unlock(_ word: UnsafeMutablePointer<MutexWord.Word>) {
        #if DEBUG
        if word.pointee.load(ordering: .relaxed) != MutexWord.holderTag {
            MutexWord.lockMisused("released by a thread that does not hold it")
        }
        #endif
        word.pointee.store(0, ordering: .releasing)
    }

    @usableFromInline
    @inline(never)
    static func lockContended(_ word: UnsafeMutablePointer<MutexWord.Word>, tag: UInt32) {
        var tries = 0
        while true {
            let current = word.pointee.load(ordering: .relaxed)
            if current == 0 {
                if word.pointee.compareExchange(expected: 0, desired: tag, ordering: .acquiring).exchanged { return }
                continue
            }
            #if DEBUG
            if current == tag { MutexWord.lockMisused("taken again on the thread that holds it") }
            #endif
            tries += 1
            if tries > 64 { sched_yield() }
        }
    }
}
