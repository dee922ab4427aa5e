import Dispatch
import Locking
import Testing

@testable import Reactive

@Suite("Schedulers")
struct SchedulerTests {
    @Test func testSchedulerRunsWorkInDueOrderOnlyWhenAdvanced() {
        let scheduler = TestScheduler()
        let log = Recorder<String, Never>()
        scheduler.schedule(after: .milliseconds(20)) { log.record(.next("b")) }
        scheduler.schedule(after: .milliseconds(10)) { log.record(.next("a")) }
        scheduler.schedule(after: .milliseconds(20)) { log.record(.next("c")) }
        #expect(log.values.isEmpty)
        scheduler.advance(by: .milliseconds(10))
        #expect(log.values == ["a"])
        scheduler.advance(by: .milliseconds(10))
        #expect(log.values == ["a", "b", "c"])
        #expect(scheduler.now == .milliseconds(20))
    }

    @Test func disposedWorkNeverRuns() {
        let scheduler = TestScheduler()
        let ran = Lock(false)
        let disposable = scheduler.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        disposable.dispose()
        scheduler.advance(by: .seconds(2))
        #expect(!ran.withLock { $0 })
    }

    @Test func intervalTicksInVirtualTimeUntilDisposed() {
        let scheduler = TestScheduler()
        let recorder = Recorder<Duration, Never>()
        let subscription = Signal.interval(.seconds(1), on: scheduler).subscribe(recorder.subscriber)
        scheduler.advance(by: .milliseconds(2_500))
        #expect(recorder.values == [.seconds(1), .seconds(2)])
        subscription.dispose()
        scheduler.advance(by: .seconds(5))
        #expect(recorder.values.count == 2)
    }

    @Test func queueSchedulerRunsWorkInOrder() async {
        let scheduler = QueueScheduler(label: "test")
        let log = Recorder<Int, Never>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for value in 0..<100 { scheduler.schedule { log.record(.next(value)) } }
            scheduler.schedule { continuation.resume() }
        }
        #expect(log.values == Array(0..<100))
    }

    /// Waited for with a semaphore and a deadline, not a continuation: once, under
    /// ThreadSanitizer on a loaded machine, the awaiting task was never resumed (no dispatch timer
    /// pending, no worker thread) and the run hung; a deadline makes that a failure that says so.
    @Test func queueSchedulerRunsDelayedAndRepeatingWork() {
        let scheduler = QueueScheduler(label: "test.delays")
        let log = Recorder<String, Never>()
        let done = DispatchSemaphore(value: 0)
        let ticks = Lock(0)
        let repeating = SerialDisposable()
        // Set up on the queue itself: the ticks run on the same serial queue, so none can run
        // before `repeating` holds their disposable. Set up from the test's thread, a preemption
        // of 7 ms between `schedule` returning and the assignment let a fourth tick run.
        scheduler.schedule {
            repeating.inner = scheduler.schedule(after: .milliseconds(1), repeatingEvery: .milliseconds(2)) {
                let tick = ticks.withLock {
                    $0 += 1
                    return $0
                }
                log.record(.next("tick \(tick)"))
                if tick == 3 {
                    repeating.dispose()
                    scheduler.schedule(after: .milliseconds(10)) { done.signal() }
                }
            }
        }
        scheduler.schedule(after: .milliseconds(500)) { log.record(.next("cancelled work ran")) }.dispose()
        #expect(done.wait(timeout: .now() + 60) == .success, "the repeating work and the delayed work ran")
        #expect(log.values == ["tick 1", "tick 2", "tick 3"])
    }

    @Test func immediateSchedulerRunsAtOnce() {
        let scheduler = ImmediateScheduler()
        let log = Recorder<Int, Never>()
        scheduler.schedule { log.record(.next(1)) }
        log.record(.next(2))
        #expect(log.values == [1, 2])
    }
}
