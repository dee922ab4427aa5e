import Locking
import Testing

@testable import Reactive

/// A named scheduler's work runs under its name (RAC `-[RACScheduler name]` read through
/// `+currentScheduler`), whatever thread its base lends it, and the thread's own name comes back
/// after it.
@Suite("NamedScheduler: the thread an event was on, by name")
struct NamedSchedulerTests {
    @Test func workRunsUnderTheSchedulersNameThenTheThreadsOwnComesBack() {
        let clock = TestScheduler()
        let background = NamedScheduler(clock, name: "background")
        let names = Lock<[String?]>([])
        let before = NamedScheduler.currentName
        background.schedule { names.withLock { $0.append(NamedScheduler.currentName) } }
        clock.schedule { names.withLock { $0.append(NamedScheduler.currentName) } }
        background.schedule(after: .seconds(1)) { names.withLock { $0.append(NamedScheduler.currentName) } }
        clock.advance(by: .seconds(2))
        #expect(names.withLock { $0 } == ["background", before, "background"])
        #expect(NamedScheduler.currentName == before)
    }

    @Test func nestedNamesUnwindInOrder() {
        let outer = NamedScheduler(ImmediateScheduler(), name: "outer")
        let inner = NamedScheduler(ImmediateScheduler(), name: "inner")
        let names = Lock<[String?]>([])
        outer.schedule {
            inner.schedule { names.withLock { $0.append(NamedScheduler.currentName) } }
            names.withLock { $0.append(NamedScheduler.currentName) }
        }
        #expect(names.withLock { $0 } == ["inner", "outer"])
    }

    @Test func aQueuesPoolThreadsCarryTheNameOnlyWhileItsWorkRuns() async {
        let queue = QueueScheduler(label: "test.named")
        let named = NamedScheduler(queue, name: "background")
        let names = Lock<[String?]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            named.schedule { names.withLock { $0.append(NamedScheduler.currentName) } }
            queue.schedule { names.withLock { $0.append(NamedScheduler.currentName) } }
            named.schedule(after: .milliseconds(1), repeatingEvery: .milliseconds(1)) {}.dispose()
            queue.schedule { continuation.resume() }
        }
        #expect(names.withLock { $0 } == ["background", nil])
    }

    @Test func aThreadNamedForGoodKeepsItsName() async {
        let runLoop = RunLoopScheduler(name: "test.named-thread")
        let name = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            runLoop.schedule { NamedScheduler.nameCurrentThread("run-loop") }
            runLoop.schedule { continuation.resume(returning: NamedScheduler.currentName) }
        }
        #expect(name == "run-loop")
    }

    @Test func deliverOnHopsToTheNamedScheduler() {
        let clock = TestScheduler()
        let background = NamedScheduler(clock, name: "background")
        let names = Lock<[String?]>([])
        let subject = Subject<Int, Never>()
        let subscription = subject.signal.deliver(on: background).subscribe(
            Subscriber { _ in names.withLock { $0.append(NamedScheduler.currentName) } }
        )
        subject.sendNext(1)
        subject.sendCompleted()
        clock.advance()
        subscription.dispose()
        #expect(names.withLock { $0 } == ["background", "background"])
    }
}
