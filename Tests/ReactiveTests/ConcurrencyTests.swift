import Dispatch
import Locking
import Reactive
import Synchronization
import Testing

/// Stress tests, run under ThreadSanitizer by scripts/test.sh (`swift test --sanitize=thread`).
@Suite("Concurrency stress")
struct ConcurrencyTests {
    @Test func sendersSubscribersAndDisposersAtOnce() {
        let subject = Subject<Int, Never>()
        let received = Atomic<Int>(0)
        let kept = Recorder<Int, Never>()
        subject.signal.subscribe(kept.subscriber)
        let senders = 4
        let sendsEach = 2_000
        DispatchQueue.concurrentPerform(iterations: senders + 2) { worker in
            if worker < senders {
                for value in 0..<sendsEach { subject.sendNext(worker * sendsEach + value) }
            } else {
                for _ in 0..<1_000 {
                    let subscription = subject.signal.subscribe(next: { _ in received.add(1, ordering: .relaxed) })
                    subscription.dispose()
                }
            }
        }
        #expect(kept.values.count == senders * sendsEach, "the long-lived subscriber saw every send")
        #expect(Set(kept.values).count == senders * sendsEach)
        #expect(subject.subscriberCount == 1)
    }

    @Test func replaySubjectUnderConcurrentSubscription() {
        let subject = ReplaySubject<Int, Never>()
        let orderedForEveryone = Atomic<Bool>(true)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for value in 0..<5_000 { subject.sendNext(value) }
                subject.sendCompleted()
            } else {
                for _ in 0..<50 {
                    let last = Lock(-1)
                    subject.signal.subscribe(next: { value in
                        let inOrder = last.withLock { last -> Bool in
                            defer { last = value }
                            return value == last + 1
                        }
                        if !inOrder { orderedForEveryone.store(false, ordering: .relaxed) }
                    })
                }
            }
        }
        let ordered = orderedForEveryone.load(ordering: .relaxed)
        #expect(ordered, "every subscriber saw 0, 1, 2, ... with no gap or repeat")
    }

    @Test func disposalRacesWithTermination() {
        for _ in 0..<500 {
            let subject = Subject<Int, Never>()
            let cleanups = Atomic<Int>(0)
            let signal = Signal<Int, Never> { subscriber in
                let inner = subject.signal.subscribe(subscriber)
                return ActionDisposable {
                    inner.dispose()
                    cleanups.add(1, ordering: .relaxed)
                }
            }
            let subscription = signal.subscribe()
            DispatchQueue.concurrentPerform(iterations: 2) { worker in
                if worker == 0 { subject.sendCompleted() } else { subscription.dispose() }
            }
            let count = cleanups.load(ordering: .relaxed)
            #expect(count == 1, "resources are released exactly once")
        }
    }
}
