import Dispatch
import Foundation
import Locking
import Reactive
import Testing

/// `scheduleRecursiveBlock:` on every scheduler, `-[RACTestScheduler step]`/`step:`, and
/// `RACTargetQueueScheduler` (RAC 2.x `RACSchedulerSpec`, `RACTestSchedulerSpec`,
/// `RACTargetQueueSchedulerSpec`).
@Suite("Recursive scheduling, stepping and target queues")
struct RecursiveSchedulingTests {
    /// Runs a recursive action `times` times on `scheduler`; returns the runs seen when done.
    func countRecursion(on scheduler: any Scheduler, times: Int) -> Int {
        let runs = Lock(0)
        let done = DispatchSemaphore(value: 0)
        scheduler.scheduleRecursive { reschedule in
            let count = runs.withLock { runs -> Int in
                runs += 1
                return runs
            }
            if count < times {
                reschedule()
            } else {
                done.signal()
            }
        }
        if !(scheduler is TestScheduler) { done.wait() }
        return runs.withLock { $0 }
    }

    @Test func everySchedulerRunsARecursiveActionUntilItStopsRescheduling() {
        let test = TestScheduler()
        let runs = Lock(0)
        test.scheduleRecursive { reschedule in
            runs.withLock { $0 += 1 }
            if runs.withLock({ $0 }) < 5 { reschedule() }
        }
        #expect(runs.withLock { $0 } == 0, "nothing runs before the clock moves")
        test.run()
        #expect(runs.withLock { $0 } == 5)
        #expect(countRecursion(on: ImmediateScheduler(), times: 5) == 5)
        #expect(countRecursion(on: QueueScheduler(), times: 5) == 5)
        #expect(countRecursion(on: RunLoopScheduler(), times: 5) == 5)
    }

    @Test func deepRecursionOnTheImmediateSchedulerDoesNotGrowTheStack() {
        // 1,000,000 nested runs would overflow the stack if each ran inside the last.
        #expect(countRecursion(on: ImmediateScheduler(), times: 1_000_000) == 1_000_000)
    }

    @Test func reschedulingTwiceInOneRunSchedulesTwoRuns() {
        let scheduler = TestScheduler()
        let runs = Lock(0)
        scheduler.scheduleRecursive { reschedule in
            let count = runs.withLock { runs -> Int in
                runs += 1
                return runs
            }
            if count == 1 {
                reschedule()
                reschedule()
            }
        }
        scheduler.run()
        #expect(runs.withLock { $0 } == 3)
    }

    @Test func disposingStopsTheRecursion() {
        let scheduler = TestScheduler()
        let runs = Lock(0)
        let disposable = scheduler.scheduleRecursive { reschedule in
            runs.withLock { $0 += 1 }
            reschedule()
        }
        scheduler.step(3)
        disposable.dispose()
        scheduler.run()
        #expect(runs.withLock { $0 } == 3)
    }

    @Test func stepRunsOnePieceOfWorkAtATimeInDueOrder() {
        let scheduler = TestScheduler()
        let log = Lock<[String]>([])
        scheduler.schedule(after: .seconds(2)) { log.withLock { $0.append("two") } }
        scheduler.schedule(after: .seconds(1)) { log.withLock { $0.append("one") } }
        let cancelled = scheduler.schedule(after: .seconds(3)) { log.withLock { $0.append("cancelled") } }
        scheduler.schedule(after: .seconds(4)) { log.withLock { $0.append("four") } }
        cancelled.dispose()
        #expect(scheduler.step())
        #expect(log.withLock { $0 } == ["one"] && scheduler.now == .seconds(1))
        #expect(scheduler.step(5) == 2, "the cancelled work is skipped, and then the schedule is dry")
        #expect(log.withLock { $0 } == ["one", "two", "four"] && scheduler.now == .seconds(4))
        #expect(!scheduler.step())
    }

    /// A step bounded by a time runs only work due by then: cancelled work due earlier is skipped
    /// and never lets later work run early (a debugger's clock stops between pieces of work).
    @Test func aStepDueByATimeRunsNothingLater() {
        let scheduler = TestScheduler()
        let log = Lock<[String]>([])
        let cancelled = scheduler.schedule(after: .seconds(1)) { log.withLock { $0.append("cancelled") } }
        scheduler.schedule(after: .seconds(3)) { log.withLock { $0.append("three") } }
        cancelled.dispose()
        #expect(!scheduler.step(dueBy: .seconds(2)))
        #expect(log.withLock { $0 }.isEmpty && scheduler.nextDueTime == .seconds(3))
        #expect(scheduler.step(dueBy: .seconds(3)))
        #expect(log.withLock { $0 } == ["three"] && scheduler.now == .seconds(3))
    }

    @Test func aNegativeStepCountIsRefused() async {
        await #expect(processExitsWith: .failure) {
            TestScheduler().step(-1)
        }
    }

    @Test func aSchedulerTargetingAConcurrentQueueStillRunsOneThingAtATimeInOrder() {
        let target = DispatchQueue(label: "test.concurrent-target", attributes: .concurrent)
        let scheduler = QueueScheduler(label: "test.targeting", targeting: target)
        let inside = Lock(0)
        let mostAtOnce = Lock(0)
        let order = Lock<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<200 {
            scheduler.schedule {
                let now = inside.withLock { inside -> Int in
                    inside += 1
                    return inside
                }
                mostAtOnce.withLock { $0 = max($0, now) }
                order.withLock { $0.append(index) }
                inside.withLock { $0 -= 1 }
                if index == 199 { done.signal() }
            }
        }
        done.wait()
        #expect(mostAtOnce.withLock { $0 } == 1)
        #expect(order.withLock { $0 } == Array(0..<200))
    }
}
