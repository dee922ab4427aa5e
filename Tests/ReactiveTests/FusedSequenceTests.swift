import Reactive
import Synchronization
import Testing

/// `map` and `filter` of a synchronous sequence (`Signal.from`) join its loop rather than
/// subscribing a subscriber each (``Signal/loop``): every observable behaviour must be that of the
/// stages subscribed one by one — the same events, the closures called in the same order, and no
/// stage's closure called once the subscription stopped (RAC's `map:` and `filter:` forward only
/// while their subscriber is not disposed).
@Suite("Fused sequence stages behave as subscribed stages")
struct FusedSequenceTests {
    /// The same signal with its fusion hidden: a plain signal subscribing it.
    private static func plain<Value, Failure>(_ signal: Signal<Value, Failure>) -> Signal<Value, Failure> {
        Signal { subscriber in
            signal.subscribe(subscriber)
            return nil
        }
    }

    /// What a chain did, in order: each closure's call and each event received.
    private final class Trace: @unchecked Sendable {
        private let lines = Mutex<[String]>([])
        func note(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private static func chain(
        _ source: Signal<Int, Never>,
        _ trace: Trace,
        stopAt stop: Int? = nil,
        _ subscriber: @escaping @Sendable () -> (any Disposable)?
    ) -> Signal<String, Never> {
        source
            .map { value -> Int in
                trace.note("map \(value)")
                if value == stop { subscriber()?.dispose() }
                return value * 10
            }
            .filter { value in
                trace.note("filter \(value)")
                return value != 20
            }
            .map { value in
                trace.note("describe \(value)")
                return "v\(value)"
            }
    }

    private static func run(_ source: Signal<Int, Never>, stopAt stop: Int? = nil) -> [String] {
        let trace = Trace()
        let subscriber = Subscriber<String, Never>(
            next: { trace.note("next \($0)") },
            completed: { trace.note("completed") }
        )
        chain(source, trace, stopAt: stop) { subscriber }.subscribe(subscriber)
        return trace.all
    }

    @Test func theSameCallsAndEventsInTheSameOrder() {
        let fused = Self.run(.from(1...4))
        #expect(fused == Self.run(Self.plain(.from(1...4))))
        #expect(fused.prefix(5) == ["map 1", "filter 10", "describe 10", "next v10", "map 2"])
        #expect(fused.last == "completed")
    }

    @Test func noStageRunsOnceTheSubscriptionStoppedInsideAnEarlierOne() {
        // Disposed inside the first map at 3: 30 is neither filtered nor described, 4 never mapped.
        let fused = Self.run(.from(1...4), stopAt: 3)
        #expect(fused == Self.run(Self.plain(.from(1...4)), stopAt: 3))
        #expect(fused.last == "map 3")
        #expect(!fused.contains("completed"))
    }

    @Test func eachSubscriptionRunsTheSequenceAgain() {
        let mapped = Mutex(0)
        let signal = Signal<Int, Never>.from([1, 2, 3]).map { value -> Int in
            mapped.withLock { $0 += 1 }
            return value
        }.filter { $0 > 1 }
        let first = Mutex<[Int]>([])
        let second = Mutex<[Int]>([])
        signal.subscribe(next: { value in first.withLock { $0.append(value) } })
        signal.subscribe(next: { value in second.withLock { $0.append(value) } })
        #expect(first.withLock { $0 } == [2, 3] && second.withLock { $0 } == [2, 3])
        #expect(mapped.withLock { $0 } == 6)
    }

    @Test func aSubscriptionDisposedBeforeTheLoopSendsNothing() {
        let subscriber = Subscriber<Int, Never>(
            next: { _ in Issue.record("a value after disposal") },
            completed: { Issue.record("completed after disposal") }
        )
        subscriber.dispose()
        Signal<Int, Never>.from(0..<10).map { $0 + 1 }.filter { _ in true }.subscribe(subscriber)
    }
}
