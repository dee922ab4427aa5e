import Dispatch
import Locking
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
