import Dispatch
import Foundation
import Locking
import Reactive
import Synchronization
import Testing

/// A synchronous source stops as soon as nothing downstream wants more (RAC's sequence signals
/// stop when their subscriber's disposable is disposed): `Signal.from(0...).take(1)` once never
/// returned, and `Signal.from(range).take(1)` pulled every element.
@Suite("Synchronous sources stop when downstream stops")
struct SynchronousSourceTests {
    /// Runs `body` on a worker thread and waits a bounded time: a hang fails the test, not the run.
    private func finishes(_ name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + 5) == .success
    }

    struct Refusal: Error {}

    static let pipelines: [(String, @Sendable (Signal<Int, Never>) -> Signal<Int, Never>)] = [
        ("take(1)", { $0.take(1) }),
        ("map + take(1)", { $0.map { $0 * 2 }.take(1) }),
        ("filter + take(1)", { $0.filter { $0 > 3 }.take(1) }),
        ("take(while:)", { $0.take(while: { $0 < 3 }) }),
        ("take(until:)", { $0.take(until: Signal<Void, Never>.just(())) }),
        ("flattenMap + take(1)", { $0.flattenMap { .just($0) }.take(1) }),
        ("concatMap + take(1)", { $0.concatMap { .just($0) }.take(1) }),
        ("switchToLatest + take(1)", { $0.flatMap(.latest) { .just($0) }.take(1) }),
        ("scan + take(2)", { $0.scan(0, +).take(2) }),
        ("merge + take(1)", { Signal.merge([$0, .never]).take(1) }),
        // (with the endless source first, no combination could ever be made)
        ("combineLatest + take(1)", { Signal.combineLatest([.just(0), $0]).map { $0[1] }.take(1) }),
        ("startWith + take(2)", { $0.startWith(-1).take(2) }),
        ("catch + take(1)", { $0.promoteError(Refusal.self).catch { (_: Refusal) in Signal<Int, Never>.empty }.take(1) }),
        ("concat + take(1)", { $0.concat(.empty).take(1) }),
        ("take(until:) closure", { $0.take(until: { $0 == 3 }) }),
        ("any", { $0.any { $0 == 3 }.map { $0 ? 1 : 0 } }),
        ("all", { $0.all { $0 < 3 }.map { $0 ? 1 : 0 } }),
        ("sample + take(1)", { Signal<Int, Never>.just(7).concat(.never).sample($0).take(1) }),  // the endless source triggers
        ("flatten(.concurrent(limit: 2)) + take(1)", { $0.map { Signal<Int, Never>.just($0) }.flatten(.concurrent(limit: 2)).take(1) }),
        ("bind + take(1)", { $0.bind { { value, _ in .just(value) } }.take(1) }),
        ("groupBy + take(1)", { $0.groupBy { $0 }.map(\.key).take(1) }),
        ("take(untilReplacement:) + take(1)", { $0.take(untilReplacement: .never).take(1) }),
        ("repeat + take(1)", { $0.repeat().take(1) }),
    ]

    @Test(arguments: pipelines.map(\.0))
    func anInfiniteSynchronousSourceStops(_ name: String) {
        let make = Self.pipelines.first { $0.0 == name }!.1
        let pulled = Counter()
        let source = Signal<Int, Never>.from(CountedNaturals(pulled: pulled))
        #expect(finishes(name) { _ = make(source).subscribe(next: { _ in }) }, "\(name) did not return")
        #expect(pulled.value <= 10, "\(name) pulled \(pulled.value) elements")
    }

    /// 0, 1, 2, … counting what is pulled; a million stand in for an endless source, so that a
    /// failing case ends too. (A `lazy.map` would not do: as a `Sendable` sequence the type checker
    /// picks the eager `map`.)
    struct CountedNaturals: Sequence, Sendable {
        let pulled: Counter

        func makeIterator() -> Iterator { Iterator(pulled: pulled) }

        struct Iterator: IteratorProtocol {
            let pulled: Counter
            var upcoming = 0

            mutating func next() -> Int? {
                guard upcoming < 1_000_000 else { return nil }
                pulled.increment()
                defer { upcoming += 1 }
                return upcoming
            }
        }
    }

    final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test func firstTakesOneElementOfAnEndlessSource() {
        let pulled = Counter()
        let first = Lock<Int?>(nil)
        #expect(
            finishes("first") {
                let value = try? Signal<Int, Never>.from(CountedNaturals(pulled: pulled)).first(timeout: .seconds(5))
                first.withLock { $0 = value }
            }
        )
        #expect(first.withLock { $0 } == 0)
        #expect(pulled.value <= 2)
    }
}

/// RAC: a flattening "should properly stop subscribing to new signals after error", even when its
/// source sends synchronously.
@Suite("Flattening after an inner error")
struct FlattenAfterErrorTests {
    struct Refusal: Error {}

    @Test(arguments: ["merge", "concat", "latest"])
    func noFurtherInnerSignalIsSubscribedAfterAnInnerError(_ strategy: String) {
        let subscribed = Lock<[Int]>([])
        let flattening: FlattenStrategy = strategy == "merge" ? .merge : strategy == "concat" ? .concat : .latest
        let source = Signal<Int, Refusal>.from([1, 2, 3, 4])
        let failed = Lock(false)
        _ = source.flatMap(flattening) { value in
            Signal<Int, Refusal> { subscriber in
                subscribed.withLock { $0.append(value) }
                if value == 2 {
                    subscriber.sendError(Refusal())
                } else {
                    subscriber.sendNext(value)
                    subscriber.sendCompleted()
                }
                return nil
            }
        }.subscribe(error: { _ in failed.withLock { $0 = true } })
        #expect(failed.withLock { $0 })
        #expect(subscribed.withLock { $0 } == [1, 2], "\(strategy): nothing after the failed inner signal")
    }
}
