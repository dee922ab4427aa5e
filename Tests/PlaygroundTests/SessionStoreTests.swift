import Dispatch
import Foundation
import Locking
import Logging
import Scenarios
import Testing

@testable import PlaygroundServer

@Suite("Session store")
struct SessionStoreTests {
    /// Several polling threads creating sessions at once: the cap holds exactly. (The cap was once
    /// checked in one critical section and the session stored in another, so threads could pass
    /// the check together.)
    @Test func theSessionCapHoldsUnderConcurrentCreation() {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var limits = SessionStore.Limits()
        limits.maxSessions = 50
        limits.maxSessionsPerClient = 10_000
        let store = SessionStore(settings: ScenarioSettings(), limits: limits, threads: 2, logger: logger)
        let created = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<40 {
                if (try? store.create(.scenario(Ticker.self), clientAddress: "client-\(thread)")) != nil {
                    created.withLock { $0 += 1 }
                }
            }
        }
        #expect(created.withLock { $0 } == 50)
        #expect(store.count == 50)
        store.closeAll(reason: "draining")
    }

    /// Programs may run on every core, but below the scenarios: each program thread runs at nice
    /// 10 with the kernel's shortest time slice, and the threads that call in (here, the test's)
    /// keep their own priority and slice.
    @Test func programThreadsRunBelowTheScenarios() throws {
        #if os(Linux)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let callers = ThreadPriority.currentNice
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, programThreads: 2, logger: logger)
        let callersSlice = ThreadPriority.currentSliceNanoseconds
        let seen = Lock<[Int32?]>([])
        let slices = Lock<[UInt64?]>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {  // one piece of work on each thread, in turn
            store.onProgramThread(for: "test") {
                seen.withLock { $0.append(ThreadPriority.currentNice) }
                slices.withLock { $0.append(ThreadPriority.currentSliceNanoseconds) }
                done.signal()
            }
        }
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 5) == .success) }
        #expect(seen.withLock { $0 } == [ThreadPriority.programNice, ThreadPriority.programNice])
        #expect(ThreadPriority.currentNice == callers)
        #expect(ThreadPriority.currentSliceNanoseconds == callersSlice, "the callers keep their slice")
        // Where the kernel takes a thread's own slice (Linux 6.12 and later), program threads have it.
        let probed = Lock<Bool?>(nil)
        let thread = Thread {
            probed.withLock { $0 = ThreadPriority.setsSlice() }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 5) == .success)
        if probed.withLock({ $0 }) == true {
            #expect(slices.withLock { $0 } == [ThreadPriority.programSliceNanoseconds, ThreadPriority.programSliceNanoseconds])
        }
        store.closeAll(reason: "draining")
        #endif
    }
}
