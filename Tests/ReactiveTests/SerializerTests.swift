import Dispatch
import Foundation
import Locking
import Synchronization
import Testing

@testable import Reactive

/// The `Serializer` behind every operator with several inputs: an update's events arrive in order
/// and together, whether the updating thread delivers them itself (its first event is handed over
/// without the queue), finds another thread delivering (they are queued for it), or updates again
/// from inside a delivery (queued, delivered after that delivery returns).
@Suite("Serializer: order, re-entrancy and contention")
struct SerializerTests {
    /// Records what the serializer delivers, and counts deliveries that overlapped.
    final class Downstream: Sendable {
        let received = Lock<[Int]>([])
        private let inside = Atomic<Bool>(false)
        private let overlapCount = Atomic<Int>(0)
        var overlaps: Int { overlapCount.load(ordering: .relaxed) }

        func receive(_ value: Int, then reaction: (Int) -> Void = { _ in }) {
            if !inside.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                overlapCount.add(1, ordering: .relaxed)
            }
            received.withLock { $0.append(value) }
            inside.store(false, ordering: .releasing)
            reaction(value)
        }
    }

    @Test func anUpdateThatSendsSeveralEventsDeliversThemInOrder() {
        let downstream = Downstream()
        let serializer = Serializer<Int, Int, Never>(0, Subscriber(next: { downstream.receive($0) }))
        serializer.update { count, outbox in
            count += 3
            outbox.append(.next(1))
            outbox.append(.next(2))
            outbox.append(.next(3))
        }
        serializer.update { _, outbox in outbox.append(.next(4)) }
        serializer.update { count, _ in count += 1 }  // no event: nothing delivered
        #expect(downstream.received.withLock { $0 } == [1, 2, 3, 4])
        #expect(serializer.update { count, _ in count } == 4)
    }

    @Test func anUpdateFromInsideADeliveryIsDeliveredAfterItReturnsInOrder() {
        let downstream = Downstream()
        let serializer = Lock<Serializer<Int, Int, Never>?>(nil)
        let trace = Lock<[String]>([])
        let subscriber = Subscriber<Int, Never>(next: { value in
            trace.withLock { $0.append("enter \(value)") }
            downstream.receive(value) { value in
                guard value == 1 else { return }
                // Sends two more while 1 is being delivered: neither may be delivered inside this call.
                serializer.withLock { $0 }?.update { _, outbox in
                    outbox.append(.next(10))
                    outbox.append(.next(11))
                }
            }
            trace.withLock { $0.append("leave \(value)") }
        })
        let made = Serializer<Int, Int, Never>(0, subscriber)
        serializer.withLock { $0 = made }
        made.update { _, outbox in
            outbox.append(.next(1))
            outbox.append(.next(2))
        }
        #expect(downstream.received.withLock { $0 } == [1, 2, 10, 11])
        #expect(
            trace.withLock { $0 } == [
                "enter 1", "leave 1", "enter 2", "leave 2", "enter 10", "leave 10", "enter 11", "leave 11",
            ]
        )
        #expect(downstream.overlaps == 0)
    }

    @Test func concurrentUpdatesArriveOneAtATimeEachUpdatesEventsTogether() {
        let downstream = Downstream()
        let serializer = Serializer<Int, Int, Never>(0, Subscriber(next: { downstream.receive($0) }))
        let threads = 4
        let updatesEach = 2_000
        Self.onThreadsStartedTogether(threads) { thread in
            for update in 0..<updatesEach {
                // Each update sends a pair: its first event and a second one, which must follow
                // it with nothing from another thread in between.
                let base = (thread * updatesEach + update) * 2
                serializer.update { count, outbox in
                    count += 1
                    outbox.append(.next(base))
                    outbox.append(.next(base + 1))
                }
            }
        }
        let received = downstream.received.withLock { $0 }
        #expect(received.count == threads * updatesEach * 2)
        #expect(Set(received).count == received.count)
        let pairsTogether = stride(from: 0, to: received.count, by: 2).allSatisfy { index in
            received[index] % 2 == 0 && received[index + 1] == received[index] + 1
        }
        #expect(pairsTogether)
        #expect(downstream.overlaps == 0)
        #expect(serializer.update { count, _ in count } == threads * updatesEach)
    }

    /// Updates of one event each, from several threads: the usual case, where the drainer stops
    /// with one compare-and-exchange unless another thread marked events queued first. Not one
    /// may be lost between the two, nor delivered twice, out of its thread's order, or alongside
    /// another.
    @Test func concurrentSingleEventUpdatesAreNeitherLostNorReordered() {
        let downstream = Downstream()
        let serializer = Serializer<Int, Int, Never>(0, Subscriber(next: { downstream.receive($0) }))
        let threads = 4
        let updatesEach = 5_000
        Self.onThreadsStartedTogether(threads) { thread in
            for update in 0..<updatesEach {
                serializer.update { _, outbox in outbox.append(.next(thread * updatesEach + update)) }
            }
        }
        let received = downstream.received.withLock { $0 }
        #expect(received.count == threads * updatesEach)
        #expect(Set(received).count == received.count)
        for thread in 0..<threads {
            let own = received.filter { $0 / updatesEach == thread }
            #expect(own == Array((thread * updatesEach)..<((thread + 1) * updatesEach)), "thread \(thread)'s order")
        }
        #expect(downstream.overlaps == 0)
        // Idle again: the next update is delivered by its own thread, at once.
        serializer.update { _, outbox in outbox.append(.next(-1)) }
        #expect(downstream.received.withLock { $0.last } == -1)
    }

    /// Runs `body` on `count` threads, each given its index, released together once all have
    /// started (so their updates overlap); returns when every one has finished.
    private static func onThreadsStartedTogether(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchSemaphore(value: 0)
        let started = Atomic<Int>(0)
        for thread in 0..<count {
            Thread.detachNewThread {
                started.add(1, ordering: .acquiringAndReleasing)
                while started.load(ordering: .acquiring) < count { sched_yield() }
                body(thread)
                finished.signal()
            }
        }
        for _ in 0..<count { finished.wait() }
    }
}
