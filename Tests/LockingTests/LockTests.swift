import Dispatch
import Foundation
import Locking
import Synchronization
import Testing

@Suite("Lock: the one lock type")
struct LockTests {
    @Test func updatesFromManyThreadsAreNeverLost() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func theResultAndErrorsOfTheBodyComeThrough() {
        struct Refused: Error {}
        let lock = Lock([1, 2, 3])
        #expect(lock.withLock { $0.count } == 3)
        #expect(throws: Refused.self) { try lock.withLock { _ in throw Refused() } }
        #expect(lock.withLock { $0 } == [1, 2, 3], "a throwing body leaves the lock usable")
    }

    #if DEBUG
    /// An error-checking mutex in debug builds: taking the lock again on the thread that holds it
    /// stops the program instead of hanging it.
    @Test func takingTheLockAgainOnTheSameThreadStopsTheProgramInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            let lock = Lock(0)
            lock.withLock { _ in lock.withLock { $0 += 1 } }
        }
    }
    #endif
}

@Suite("SpinLock: the hottest short critical sections")
struct SpinLockTests {
    @Test func updatesFromMoreThreadsThanCoresAreNeverLost() {
        let counter = SpinLock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func oneThreadAtATimeHoldsIt() {
        let lock = SpinLock(0)
        let inside = Atomic<Int>(0)
        let mostAtOnce = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5_000 {
                lock.withLock { _ in
                    let now = inside.add(1, ordering: .relaxed).newValue
                    mostAtOnce.max(now, ordering: .relaxed)
                    inside.subtract(1, ordering: .relaxed)
                }
            }
        }
        #expect(mostAtOnce.load(ordering: .relaxed) == 1)
    }

    @Test func theResultAndErrorsOfTheBodyComeThrough() {
        struct Refused: Error {}
        let lock = SpinLock("state")
        #expect(lock.withLock { $0.count } == 5)
        #expect(throws: Refused.self) { try lock.withLock { _ in throw Refused() } }
        #expect(lock.withLock { $0 } == "state", "a throwing body leaves the lock usable")
    }

    #if DEBUG
    /// Taking the lock again on the thread that holds it stops the program instead of spinning
    /// for ever.
    @Test func takingTheLockAgainOnTheSameThreadStopsTheProgramInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            let lock = SpinLock(0)
            lock.withLock { _ in lock.withLock { $0 += 1 } }
        }
    }
    #endif
}

@Suite("ReentrantLock: delivery's @synchronized")
struct ReentrantLockTests {
    @Test func theThreadThatHoldsItMayTakeItAgain() {
        let lock = ReentrantLock()
        let depth = lock.withLock { lock.withLock { lock.withLock { 3 } } }
        #expect(depth == 3)
    }

    @Test func otherThreadsWaitTheirTurn() {
        let lock = ReentrantLock()
        let inside = Lock(0)
        let mostAtOnce = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<2_000 {
                lock.withLock {
                    let now = inside.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    mostAtOnce.withLock { $0 = max($0, now) }
                    inside.withLock { $0 -= 1 }
                }
            }
        }
        #expect(mostAtOnce.withLock { $0 } == 1)
    }
}

@Suite("MutexWord: the futex word under every lock")
struct MutexWordTests {
    /// Threads that find the lock held mark the word and sleep on it; the
    /// release wakes one, and each one that wakes takes the lock with the mark set again, so none
    /// is left asleep.
    @Test func threadsAsleepOnTheWordAreAllWokenInTurn() {
        let shared = SharedWord()
        let word = shared.pointer
        defer { shared.free() }
        let waiters = 3
        let done = Lock(0)
        let group = DispatchGroup()
        MutexWord.lock(word)
        for _ in 0..<waiters {
            DispatchQueue.global().async(group: group) {
                MutexWord.lock(shared.pointer)
                done.withLock { $0 += 1 }
                MutexWord.unlock(shared.pointer)
            }
        }
        // A waiter sets the lowest bit just before it sleeps: wait for that, not for a time.
        while word.pointee.load(ordering: .acquiring) & 1 == 0 { sched_yield() }
        #expect(done.withLock { $0 } == 0, "nobody passes a held lock")
        MutexWord.unlock(word)
        group.wait()
        #expect(done.withLock { $0 } == waiters)
        #expect(word.pointee.load(ordering: .acquiring) == 0, "free once everyone has been through")
    }

    #if DEBUG
    @Test func releasingALockThisThreadDoesNotHoldStopsTheProgramInDebugBuilds() async {
        await #expect(processExitsWith: .failure) {
            let word = UnsafeMutablePointer<MutexWord.Word>.allocate(capacity: 1)
            MutexWord.initialize(word)
            MutexWord.unlock(word)
        }
    }
    #endif
}

/// A word the test's threads share: the test frees it after they are done.
private struct SharedWord: @unchecked Sendable {
    let pointer = UnsafeMutablePointer<MutexWord.Word>.allocate(capacity: 1)
    init() { MutexWord.initialize(pointer) }
    func free() {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
