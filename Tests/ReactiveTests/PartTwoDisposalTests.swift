import Reactive
import Testing

/// Disposing a subscription to any of the operators added for RAC fidelity (part 2) ends its
/// subscription to the source and delivers nothing more (RAC: every operator's disposable
/// disposes its upstream subscriptions).
@Suite("Part 2 operators: disposal")
struct PartTwoDisposalTests {
    typealias Case = @Sendable (Signal<Int, TestError>, TestScheduler) -> Signal<Int, TestError>

    static let cases: [(String, Case)] = [
        ("sample", { source, _ in source.sample(source) }),
        ("buffer(every:on:)", { source, scheduler in source.buffer(every: .milliseconds(10), on: scheduler).map { $0.count } }),
        ("groupBy", { source, _ in source.groupBy { $0 % 2 }.flatMap(.merge) { $0.signal } }),
        ("repeat", { source, _ in source.repeat() }),
        ("initially", { source, _ in source.initially {} }),
        ("attempt", { source, _ in source.attempt { _ in } }),
        ("attemptMap", { source, _ in source.attemptMap { $0 } }),
        ("take(untilReplacement:)", { source, _ in source.take(untilReplacement: .never) }),
        ("switch(_:cases:default:)", { source, _ in Signal.switch(source, cases: [1: source], default: source) }),
        ("combinePrevious", { source, _ in source.combinePrevious(0, +) }),
        ("ignore", { source, _ in source.ignore(5) }),
        ("scan(_:withIndex:)", { source, _ in source.scan(0, withIndex: { $0 + $1 + $2 }) }),
        ("bind", { source, _ in source.bind { { value, _ in .just(value) } } }),
        ("aggregate", { source, _ in source.aggregate(0, +) }),
        ("any", { source, _ in source.any { $0 > 100 }.map { $0 ? 1 : 0 } }),
        ("all", { source, _ in source.all { $0 < 100 }.map { $0 ? 1 : 0 } }),
        ("takeLast", { source, _ in source.takeLast(2) }),
        ("take(until:) closure", { source, _ in source.take(until: { $0 > 100 }) }),
        ("skip(until:) closure", { source, _ in source.skip(until: { $0 > 0 }) }),
        ("flatten(.concurrent(limit: 2))", { source, _ in source.flatMap(.concurrent(limit: 2)) { _ in source } }),
    ]

    @Test(arguments: cases.map(\.0))
    func disposingEndsTheSourceSubscriptionAndDeliversNothingMore(_ name: String) {
        let make = Self.cases.first { $0.0 == name }!.1
        let scheduler = TestScheduler()
        let source = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        let subscription = make(source.signal, scheduler).subscribe(recorder.subscriber)
        source.sendNext(1)
        scheduler.run()
        let before = recorder.events
        subscription.dispose()
        #expect(source.subscriberCount == 0, "\(name) still holds a subscription to its source")
        source.sendNext(2)
        source.sendCompleted()
        scheduler.run()
        #expect(recorder.events.count == before.count, "\(name) delivered after disposal")
    }
}
