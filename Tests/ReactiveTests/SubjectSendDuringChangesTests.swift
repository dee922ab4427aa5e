import Dispatch
import Locking
import Synchronization
import Testing

@testable import Reactive

/// A subject's send iterates its members as they were when it began, without a reference to
/// their storage (the storage is pinned, and a change made meanwhile copies it): each case changes
/// the members from inside a send, or from other threads during sends.
@Suite("A subject's members change while it sends")
struct SubjectSendDuringChangesTests {
    final class Token: Sendable {}

    /// Members disposed during a send (enough to compact the list) and members added during it:
    /// every member that was there when the send began and is still subscribed gets the value
    /// once, the ones disposed before their turn get nothing, the new ones only the next value.
    @Test func disposalsAndSubscriptionsDuringASendDoNotDisturbIt() {
        let subject = Subject<Int, Never>()
        let received = Lock([Int: [Int]]())
        let subscriptions = Lock([any Disposable]())
        let latecomers = Lock([any Disposable]())
        for index in 0..<100 {
            let subscription = subject.signal.subscribe(next: { value in
                received.withLock { $0[index, default: []].append(value) }
                guard index == 10, value == 1 else { return }
                for other in subscriptions.withLock({ Array($0[20..<80]) }) { other.dispose() }
                for late in 100..<105 {
                    let subscription = subject.signal.subscribe(next: { value in
                        received.withLock { $0[late, default: []].append(value) }
                    })
                    latecomers.withLock { $0.append(subscription) }
                }
            })
            subscriptions.withLock { $0.append(subscription) }
        }
        subject.sendNext(1)
        subject.sendNext(2)
        let byMember = received.withLock { $0 }
        for index in Array(0..<20) + Array(80..<100) { #expect(byMember[index] == [1, 2], "member \(index)") }
        for index in 20..<80 { #expect(byMember[index] == nil, "member \(index) was disposed before its turn") }
        for index in 100..<105 { #expect(byMember[index] == [2], "member \(index) joined during the first send") }
        #expect(subject.subscriberCount == 45)
    }

    /// A member that ends its own subscription during a send (as `take(1)` does) is released when
    /// the send ends, not kept by the storage the send iterated until the next one.
    @Test func aMemberThatLeavesDuringASendIsReleasedWhenItEnds() {
        let subject = Subject<Int, Never>()
        let stays = subject.signal.subscribe(next: { _ in })
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            subject.signal.take(1).subscribe(next: { _ in _ = token })
        }
        #expect(weakToken != nil)
        subject.sendNext(1)
        #expect(weakToken == nil, "released with the send's end")
        #expect(subject.subscriberCount == 1)
        stays.dispose()
    }

    /// A member that sends into its own subject is served at once (RAC's re-entrant
    /// `@synchronized`), every member in order, while the outer send's iteration goes on.
    @Test func aSendFromInsideASendReachesEveryMember() {
        let subject = Subject<Int, Never>()
        let log = Lock([String]())
        subject.signal.subscribe(next: { value in
            log.withLock { $0.append("a\(value)") }
            if value == 1 { subject.sendNext(2) }
        })
        subject.signal.subscribe(next: { value in log.withLock { $0.append("b\(value)") } })
        subject.sendNext(1)
        #expect(log.withLock { $0 } == ["a1", "a2", "b2", "b1"])
    }

    /// Sends on one thread while two others subscribe and dispose: a member subscribed throughout
    /// gets every value once, in order, and nothing crashes or races (under ThreadSanitizer). A
    /// stress test: the case above is the one that fails when a change writes into pinned storage.
    @Test func changesFromOtherThreadsDuringSends() {
        let subject = Subject<Int, Never>()
        let values = Lock([Int]())
        let steady = subject.signal.subscribe(next: { value in values.withLock { $0.append(value) } })
        let sends = 200_000
        let running = Atomic<Bool>(true)
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                var first = true
                while running.load(ordering: .relaxed) {
                    let batch = (0..<20).map { _ in subject.signal.subscribe(next: { _ in }) }
                    for subscription in batch.reversed() { subscription.dispose() }
                    if first {
                        first = false
                        started.signal()
                    }
                }
            }
        }
        // The sends begin once both threads are changing the members.
        started.wait()
        started.wait()
        for value in 0..<sends { subject.sendNext(value) }
        running.store(false, ordering: .relaxed)
        group.wait()
        #expect(values.withLock { $0 } == Array(0..<sends))
        #expect(subject.subscriberCount == 1)
        steady.dispose()
    }
}
