import Foundation
import Locking
import Testing

@testable import Reactive

@Suite("RunLoopScheduler: a kept-alive run loop on its own thread")
struct RunLoopSchedulerTests {
    /// Waits (without sleeping the test's logic into correctness) for `count` recorded values.
    private func waitFor<T>(_ recorder: Recorder<T, Never>, count: Int) async {
        let deadline = ContinuousClock.now + .seconds(5)
        while recorder.values.count < count && ContinuousClock.now < deadline {
            await Task.yield()
        }
    }

    @Test func workRunsInOrderOnTheSchedulersThreadIncludingWorkScheduledBeforeItStarted() async {
        let scheduler = RunLoopScheduler(name: "test.run-loop", startingThread: false)
        let recorder = Recorder<String, Never>()
        scheduler.schedule(after: .milliseconds(1)) { recorder.record(.next("timer \(scheduler.isCurrent)")) }
        for index in 0..<25 {
            scheduler.schedule { recorder.record(.next("\(index) \(scheduler.isCurrent)")) }
        }
        scheduler.startThread()
        for index in 25..<50 {
            scheduler.schedule { recorder.record(.next("\(index) \(scheduler.isCurrent)")) }
        }
        await waitFor(recorder, count: 51)
        let values = recorder.values
        #expect(values.filter { !$0.hasPrefix("timer") } == (0..<50).map { "\($0) true" })
        #expect(values.contains("timer true"))
        #expect(!scheduler.isCurrent)
    }

    @Test func timersRunInDueOrderOnTheSchedulersThread() async {
        let scheduler = RunLoopScheduler()
        let recorder = Recorder<String, Never>()
        scheduler.schedule(after: .milliseconds(30)) { recorder.record(.next("late \(scheduler.isCurrent)")) }
        scheduler.schedule(after: .milliseconds(10)) { recorder.record(.next("early \(scheduler.isCurrent)")) }
        scheduler.schedule { recorder.record(.next("now \(scheduler.isCurrent)")) }
        await waitFor(recorder, count: 3)
        #expect(recorder.values == ["now true", "early true", "late true"])
    }

    @Test func repeatingWorkStopsWhenDisposed() async {
        let scheduler = RunLoopScheduler()
        let recorder = Recorder<Int, Never>()
        let ticks = Lock(0)
        let repeating = scheduler.schedule(after: .milliseconds(1), repeatingEvery: .milliseconds(5)) {
            let tick = ticks.withLock {
                $0 += 1
                return $0
            }
            recorder.record(.next(tick))
        }
        await waitFor(recorder, count: 3)
        repeating.dispose()
        // After disposal is observed on the scheduler's thread, no more ticks arrive.
        let fence = Recorder<Int, Never>()
        scheduler.schedule(after: .milliseconds(20)) { fence.record(.next(0)) }
        await waitFor(fence, count: 1)
        let settled = recorder.values.count
        let secondFence = Recorder<Int, Never>()
        scheduler.schedule(after: .milliseconds(20)) { secondFence.record(.next(0)) }
        await waitFor(secondFence, count: 1)
        #expect(recorder.values.count == settled)
        #expect(settled >= 3)
    }

    @Test func deliverOnMovesEventsToTheScheduler() async {
        let scheduler = RunLoopScheduler()
        let subject = Subject<Int, Never>()
        let recorder = Recorder<String, Never>()
        subject.signal.deliver(on: scheduler).subscribe(next: { recorder.record(.next("\($0) \(scheduler.isCurrent)")) })
        (1...3).forEach(subject.sendNext)
        await waitFor(recorder, count: 3)
        #expect(recorder.values == ["1 true", "2 true", "3 true"])
    }

    @Test func subscribeOnRunsTheSubscriptionOnTheScheduler() async {
        let scheduler = RunLoopScheduler()
        let recorder = Recorder<Bool, Never>()
        Signal<Bool, Never> { subscriber in
            subscriber.sendNext(scheduler.isCurrent)
            return nil
        }
        .subscribe(on: scheduler)
        .subscribe(recorder.subscriber)
        await waitFor(recorder, count: 1)
        #expect(recorder.values == [true])
    }

    /// Work's closures are released once it has run or been cancelled. (With one `Foundation.Timer`
    /// per piece of work they never were on Linux, so every deleted playground session leaked.)
    @Test func workIsReleasedOnceRunOrCancelled() async {
        final class Token: Sendable {}
        let scheduler = RunLoopScheduler()
        let recorder = Recorder<Int, Never>()
        weak var ran: Token?
        weak var cancelled: Token?
        weak var stoppedRepeating: Token?
        do {
            let first = Token()
            let second = Token()
            let third = Token()
            ran = first
            cancelled = second
            stoppedRepeating = third
            scheduler.schedule {
                _ = first
                recorder.record(.next(1))
            }
            scheduler.schedule(after: .seconds(3_600)) { _ = second }.dispose()
            let repeating = scheduler.schedule(after: .zero, repeatingEvery: .milliseconds(1)) {
                _ = third
                recorder.record(.next(2))
            }
            await waitFor(recorder, count: 3)
            repeating.dispose()
        }
        // A fence: once later work has run, the work before it is done with.
        let fence = Recorder<Int, Never>()
        scheduler.schedule { fence.record(.next(0)) }
        await waitFor(fence, count: 1)
        #expect(ran == nil, "work that ran is released")
        #expect(cancelled == nil, "cancelled work is released at once, not when it would have been due")
        #expect(stoppedRepeating == nil, "disposed repeating work is released")
    }

    /// Cancelling work that holds the last reference to its scheduler: the work is released, the
    /// scheduler's deinit stops it, which takes the scheduler's lock — once while cancel still held
    /// it (a deadlock in release builds; the debug build's error-checking mutex caught it).
    @Test func cancellingWorkThatHoldsTheLastReferenceToItsSchedulerDoesNotDeadlock() {
        weak var weakScheduler: RunLoopScheduler?
        let pending: any Disposable
        do {
            let scheduler = RunLoopScheduler()
            weakScheduler = scheduler
            pending = scheduler.schedule(after: .seconds(3_600)) { _ = scheduler }
        }
        #expect(weakScheduler != nil, "the pending work keeps its scheduler")
        pending.dispose()
        #expect(weakScheduler == nil)
    }

    @Test func workDueAtTheSameTimeRunsInTheOrderItWasScheduled() async {
        let scheduler = RunLoopScheduler()
        let recorder = Recorder<Int, Never>()
        for index in 0..<2_000 {
            if index.isMultiple(of: 3) {
                scheduler.schedule(after: .zero) { recorder.record(.next(index)) }
            } else {
                scheduler.schedule { recorder.record(.next(index)) }
            }
        }
        await waitFor(recorder, count: 2_000)
        #expect(recorder.values == Array(0..<2_000))
    }

    /// Immediate work from other threads wakes the run loop through its eventfd, one signal until
    /// the thread begins to run what is due: a wake-up lost between the two would leave work
    /// waiting for ever. Two schedulers pass a baton 2,000 times (each hop scheduled from the other
    /// one's thread, often while it is still running), and four threads schedule at once.
    @Test func immediateWorkFromOtherThreadsIsNeverLeftWaiting() async {
        let ping = RunLoopScheduler(name: "test.ping")
        let pong = RunLoopScheduler(name: "test.pong")
        let hops = Recorder<Int, Never>()
        @Sendable func hop(_ count: Int) {
            hops.record(.next(count))
            guard count < 2_000 else { return }
            (count.isMultiple(of: 2) ? pong : ping).schedule { hop(count + 1) }
        }
        ping.schedule { hop(1) }
        let burst = Recorder<Int, Never>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 { ping.schedule { burst.record(.next(thread * 1_000 + index)) } }
        }
        await waitFor(hops, count: 2_000)
        await waitFor(burst, count: 2_000)
        #expect(hops.values == Array(1...2_000))
        let values = burst.values
        for thread in 0..<4 {
            #expect(values.filter { $0 / 1_000 == thread } == Array(thread * 1_000..<thread * 1_000 + 500))
        }
    }

    /// Work that schedules the next piece from the scheduler's own thread needs no wake-up while
    /// the thread is running what is due: it is picked up in the same firing. 5,000 in a chain,
    /// with immediate work from another thread and delayed work mixed in, all run.
    @Test func workScheduledFromItsOwnThreadRunsInTheSameFiring() async {
        let scheduler = RunLoopScheduler(name: "test.chain")
        let chain = Recorder<Int, Never>()
        @Sendable func link(_ count: Int) {
            chain.record(.next(count))
            guard count < 5_000 else { return }
            if count.isMultiple(of: 1_000) {
                scheduler.schedule(after: .milliseconds(1)) { link(count + 1) }
            } else {
                scheduler.schedule { link(count + 1) }
            }
        }
        scheduler.schedule { link(1) }
        let others = Recorder<Int, Never>()
        for index in 0..<100 { scheduler.schedule { others.record(.next(index)) } }
        await waitFor(chain, count: 5_000)
        await waitFor(others, count: 100)
        #expect(chain.values == Array(1...5_000))
        #expect(others.values == Array(0..<100))
    }

    /// The classic run-loop lesson: a thread whose run loop has no source returns at once, so work handed to
    /// it never runs; the scheduler's kept-alive run loop does run it.
    @Test func aRunLoopWithoutASourceReturnsAtOnce() {
        let returned = Lock<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = RunLoop.current.run(mode: .default, before: .distantFuture)
            returned.withLock { $0 = result }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(returned.withLock { $0 } == false, "no source: the run loop did not run")
    }
}
