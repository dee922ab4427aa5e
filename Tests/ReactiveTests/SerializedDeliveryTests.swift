import Dispatch
import Foundation
import Locking
import Reactive
import Synchronization
import Testing

/// RAC's `RACSubscriber` sends under `@synchronized(self)`, and `RACReplaySubject` records and
/// sends under `@synchronized(self)`: events sent into a subject from several threads reach each
/// subscriber one at a time, and a replay subject's live order is its replay order. Stress tests,
/// run under ThreadSanitizer too by scripts/test.sh.
@Suite("Serialized delivery (RAC @synchronized)")
struct SerializedDeliveryTests {
    /// Runs `body` on `count` threads of its own that start together (each waits until all have
    /// started), so the senders really overlap even on two cores; returns when all have finished.
    func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let started = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread.detachNewThread {
                started.add(1, ordering: .acquiringAndReleasing)
                while started.load(ordering: .acquiring) < count { sched_yield() }
                body(index)
                finished.signal()
            }
        }
        for _ in 0..<count { finished.wait() }
    }

    /// A subscriber that notices when it is entered while already running on another thread, and
    /// keeps the order it received values in. Its work takes a moment, so that overlap, if the
    /// subject allowed it, would be caught.
    final class OverlapDetector: Sendable {
        private let inside = Atomic<Bool>(false)
        private let overlaps = Atomic<Int>(0)
        private let received = Lock<[Int]>([])

        var overlapCount: Int { overlaps.load(ordering: .relaxed) }
        var values: [Int] { received.withLock { $0 } }

        func receive(_ value: Int) {
            if !inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                overlaps.add(1, ordering: .relaxed)
            }
            received.withLock { $0.append(value) }
            var spin = 0
            for step in 0..<200 { spin &+= step }  // a little work inside the subscriber
            withExtendedLifetime(spin) {}
            inside.store(false, ordering: .releasing)
        }
    }

    @Test func concurrentSendersIntoASubjectReachEachSubscriberOneAtATimeInOneOrder() {
        let subject = Subject<Int, Never>()
        let detectors = (0..<4).map { _ in OverlapDetector() }
        for detector in detectors { subject.signal.subscribe(next: detector.receive) }
        let senders = 8
        let sendsEach = 2_000
        onThreadsAtOnce(senders) { sender in
            for value in 0..<sendsEach { subject.sendNext(sender * sendsEach + value) }
        }
        for detector in detectors {
            #expect(detector.overlapCount == 0, "a subscriber was entered while it was still running")
            #expect(Set(detector.values).count == senders * sendsEach, "every value arrived once")
        }
        let orders = Set(detectors.map(\.values))
        #expect(orders.count == 1, "every subscriber received the values in the same order")
    }

    @Test func concurrentSendersIntoAReplaySubjectReachSubscribersInReplayOrder() {
        for _ in 0..<3 {
            let subject = ReplaySubject<Int, Never>()
            let early = OverlapDetector()
            subject.signal.subscribe(next: early.receive)
            let late = Lock<[OverlapDetector]>([])
            let senders = 4
            let sendsEach = 1_000
            onThreadsAtOnce(senders) { worker in
                for value in 0..<sendsEach {
                    subject.sendNext(worker * sendsEach + value)
                    // Subscribers arriving while the senders run: replay, then live, in one order.
                    if value % 250 == 0 {
                        let detector = OverlapDetector()
                        subject.signal.subscribe(next: detector.receive)
                        late.withLock { $0.append(detector) }
                    }
                }
            }
            let replayOrder = subject.replayedValues
            #expect(replayOrder.count == senders * sendsEach)
            for detector in [early] + late.withLock({ $0 }) {
                #expect(detector.overlapCount == 0, "a subscriber was entered while it was still running")
                #expect(detector.values == replayOrder, "live order differs from replay order")
            }
        }
    }

    @Test func aSubscriberSendingBackFromItsOwnThreadIsServedAtOnceWhileOthersWait() {
        for _ in 0..<10 {
            let subject = Subject<Int, Never>()
            let received = Lock<[Int]>([])
            subject.signal.subscribe(next: { value in
                received.withLock { $0.append(value) }
                // Re-entrant: delivered before this send returns, as with @synchronized.
                if value >= 0 { subject.sendNext(-value - 1) }
            })
            onThreadsAtOnce(4) { sender in
                for value in sender * 1_000..<(sender + 1) * 1_000 { subject.sendNext(value) }
            }
            let values = received.withLock { $0 }
            let unfollowed = values.indices.filter { index in
                values[index] >= 0 && (index + 1 == values.count || values[index + 1] != -values[index] - 1)
            }
            #expect(values.count == 8_000)
            #expect(unfollowed.isEmpty, "each nested event came right after the one that sent it")
        }
    }

    /// RAC's `RACBehaviorSubject` sets its current value and sends it under one `@synchronized`:
    /// while a subscriber receives a value, that value is the current one.
    @Test func aCurrentValueSubjectsValueIsTheOneBeingDelivered() {
        let subject = CurrentValueSubject<Int, Never>(-1)
        let mismatches = Atomic<Int>(0)
        subject.signal.subscribe(next: { [subject] value in
            if subject.value != value { mismatches.add(1, ordering: .relaxed) }
        })
        onThreadsAtOnce(4) { sender in
            for value in 0..<2_000 { subject.sendNext(sender * 2_000 + value) }
        }
        subject.sendCompleted()
        #expect(mismatches.load(ordering: .relaxed) == 0, "a subscriber read another thread's value as current")
    }
}
