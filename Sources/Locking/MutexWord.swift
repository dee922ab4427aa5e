import CFutex
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex in one 32-bit word: the mechanism under ``Lock``, ``ReentrantLock`` and `Reactive`'s
/// replay subjects' subscriber lists.
///
/// The word is 0 when free; otherwise it holds the holder's tag, with its lowest bit set when a
/// thread may be asleep waiting for it. Taking a free lock is one compare-and-exchange (acquire),
/// releasing it one exchange (release), both inlined into the caller: about 10 instructions a pair,
/// where a glibc `pthread_mutex_t` cost 53 (callgrind, docs/PERFORMANCE.md) — and the reactive
/// core takes a lock several times for every value it delivers. A thread that finds the lock taken
/// sleeps on the word with Linux's futex until the holder wakes it (Drepper, "Futexes Are Tricky",
/// the third mutex; a thread that has slept takes the lock with the waiters bit set, since others
/// may still sleep). Not fair, no priority inheritance, no spinning: as glibc's default mutex. On
/// two cores a spinning waiter takes the core its holder may need, and the one comparison made
/// (100 rounds of spinning, docs/PERFORMANCE.md) measured worse.
///
/// Why not `Synchronization.Mutex`, which is also a futex word: on Linux it hands a contended lock
/// over through a priority-inheritance futex, which the kernel writes, so ThreadSanitizer never sees
/// the handover and `swift test --sanitize=thread` reported races on state that was always accessed
/// under the lock (Swift 6.3.1). Here every handover is an atomic operation in the program —
/// acquire on taking, release on giving back — which ThreadSanitizer follows.
///
/// In debug builds the tag is the calling thread's own, so a lock taken again on the thread that
/// holds it, or released by a thread that does not, stops the program with a message instead of
/// hanging it. In release builds every holder's tag is the same.
public enum MutexWord {
    /// The word itself.
    public typealias Word = Atomic<UInt32>

    /// Initialises the word at `word` (uninitialised memory) as a free lock.
    public static func initialize(_ word: UnsafeMutablePointer<Word>) {
        word.initialize(to: Word(0))
    }

    /// A free lock in memory of its own, for an object that keeps its word apart from its state
    /// (``ReentrantLock``, a subject's list); ``deallocate(_:)`` gives it back.
    public static func allocate() -> UnsafeMutablePointer<Word> {
        let word = UnsafeMutablePointer<Word>.allocate(capacity: 1)
        initialize(word)
        return word
    }

    /// Gives back a word made by ``allocate()``, which no thread may hold or use again.
    public static func deallocate(_ word: UnsafeMutablePointer<Word>) {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Takes the lock, waiting for it if another thread holds it.
    @inlinable
    public static func lock(_ word: UnsafeMutablePointer<Word>) {
        let tag = holderTag
        if word.pointee.compareExchange(expected: 0, desired: tag, ordering: .acquiring).exchanged { return }
        lockContended(word, tag: tag)
    }

    /// Releases the lock, waking a thread that waits for it.
    @inlinable
    public static func unlock(_ word: UnsafeMutablePointer<Word>) {
        let previous = word.pointee.exchange(0, ordering: .releasing)
        #if DEBUG
        if previous & ~waitersBit != holderTag { lockMisused("released by a thread that does not hold it") }
        #endif
        if previous & waitersBit != 0 { wakeOne(word) }
    }

    /// Set in the word while a thread may be asleep on it.
    @inlinable
    static var waitersBit: UInt32 { 1 }

    /// What a holder writes in the word.
    @inlinable
    static var holderTag: UInt32 {
        #if DEBUG
        ThreadTag.current
        #else
        2
        #endif
    }

    @usableFromInline
    @inline(never)
    static func lockContended(_ word: UnsafeMutablePointer<Word>, tag: UInt32) {
        var hasSlept = false
        while true {
            let current = word.pointee.load(ordering: .relaxed)
            if current == 0 {
                let desired = hasSlept ? tag | waitersBit : tag
                if word.pointee.compareExchange(expected: 0, desired: desired, ordering: .acquiring).exchanged { return }
                continue
            }
            #if DEBUG
            if current & ~waitersBit == tag { lockMisused("taken again on the thread that holds it") }
            #endif
            if current & waitersBit == 0 {
                let marked = current | waitersBit
                guard word.pointee.compareExchange(expected: current, desired: marked, ordering: .relaxed).exchanged
                else { continue }
            }
            cfutex_wait(address(of: word), current | waitersBit)
            hasSlept = true
        }
    }

    @usableFromInline
    @inline(never)
    static func wakeOne(_ word: UnsafeMutablePointer<Word>) {
        cfutex_wake_one(address(of: word))
    }

    /// The word's address for the kernel: an `Atomic<UInt32>` is laid out as its `UInt32`.
    static func address(of word: UnsafeMutablePointer<Word>) -> UnsafeMutablePointer<UInt32> {
        UnsafeMutableRawPointer(word).assumingMemoryBound(to: UInt32.self)
    }

    @usableFromInline
    static func lockMisused(_ what: String) -> Never {
        fatalError("Locking: a lock \(what)")
    }
}

#if DEBUG
/// The calling thread's tag for ``MutexWord`` in debug builds: even, never 0, one per thread.
@usableFromInline
enum ThreadTag {
    @usableFromInline
    static var current: UInt32 {
        if let stored = pthread_getspecific(key) { return UInt32(truncatingIfNeeded: UInt(bitPattern: stored)) }
        var tag = next.add(2, ordering: .relaxed).newValue
        if tag == 0 { tag = next.add(2, ordering: .relaxed).newValue }  // wrapped after 2³¹ threads
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(tag)))
        return tag
    }

    private static let next = Atomic<UInt32>(0)
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()
}
#endif
