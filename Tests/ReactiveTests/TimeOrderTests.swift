import ReactiveTesting
import Testing

@testable import Reactive

/// No time-based operator sends a value older than one it already sent. Each case runs random
/// rows — values 1, 2, 3… at random times, several often at one instant — on a `TestScheduler`
/// and checks that what comes out is the input's values in their order (a subsequence; `sample`
/// may send one value again), each no earlier than it came in.
@Suite("Operators: time keeps order")
struct TimeOrderTests {
    typealias Operator = @Sendable (Signal<Int, Never>, Signal<Int, Never>, TestScheduler) -> Signal<Int, Never>

    static let ms = Duration.milliseconds
    /// Every time-based operator that sends its input's values; the second signal is a random
    /// trigger row for those that take one.
    static let operators: [(String, Operator)] = [
        ("throttle", { s, _, t in s.throttle(ms(200), on: t) }),
        ("throttle(valuesPassing:)", { s, _, t in s.throttle(ms(200), on: t, valuesPassing: { $0 % 3 != 0 }) }),
        ("rateLimit", { s, _, t in s.rateLimit(ms(200), on: t) }),
        ("rateLimit 100", { s, _, t in s.rateLimit(ms(100), on: t) }),
        ("delay", { s, _, t in s.delay(ms(200), on: t) }),
        ("sample", { s, trigger, _ in s.sample(trigger) }),
        ("timeout", { s, _, t in s.timeout(after: ms(1_500), on: t).catch { _ in .empty } }),
        ("buffer(every:)", { s, _, t in s.buffer(every: ms(200), on: t).flatMap(.concat) { Signal.from($0) } }),
        ("deliver(on:)", { s, _, t in s.deliver(on: t) }),
        ("subscribe(on:)", { s, _, t in s.subscribe(on: t) }),
    ]

    @Test(arguments: operators.map(\.0))
    func valuesLeaveInTheOrderTheyCame(_ name: String) throws {
        let apply = try #require(Self.operators.first { $0.0 == name }?.1)
        for seed in UInt64(1)...200 {
            var random = SeededGenerator(seed: seed)
            let scheduler = TestScheduler()
            // Times on a 100 ms grid so that timers and values often meet at one instant.
            let times = (0..<Int.random(in: 1...12, using: &random)).map { _ in 100 * Int.random(in: 0...15, using: &random) }
                .sorted()
            let input = scheduler.hot(times.enumerated().map { ($1, Event<Int, Never>.next($0 + 1)) } + [(1_700, .completed)])
            let triggerTimes = (0..<Int.random(in: 0...8, using: &random)).map { _ in 100 * Int.random(in: 0...16, using: &random) }
            let trigger = scheduler.hot(triggerTimes.sorted().map { ($0, Event<Int, Never>.next(0)) })
            let recorder = TimedRecorder<Int, Never>(scheduler)
            apply(input, trigger, scheduler).subscribe(recorder.subscriber)
            scheduler.run()

            let sent = recorder.events.compactMap { time, event in event.value.map { (time, $0) } }
            var last = 0
            for (time, value) in sent {
                let order = name == "sample" ? value >= last : value > last
                #expect(order, "seed \(seed): \(value) after \(last); input at \(times), sent \(sent)")
                #expect(times[value - 1] <= time, "seed \(seed): \(value) sent at \(time) before it came at \(times[value - 1])")
                last = value
            }
        }
    }

    /// The case: `c` is let through at 300 ms, so the `b` the interval held is dropped
    /// rather than sent after it.
    @Test func rateLimitLetsTheNewerValueReplaceTheHeldOne() {
        #expect(
            Marbles.output(of: "-abc----|") { inputs, scheduler in inputs[0].rateLimit(Self.ms(200), on: scheduler) }
                == "-a-c----|"
        )
    }
}
