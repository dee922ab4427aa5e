import Reactive
import Testing

/// The contract every operator keeps, checked for each in virtual time: errors pass through (or,
/// for the error operators, are handled), and after disposal no work continues and the source is
/// released.
@Suite("Operator contract: errors, completion and disposal")
struct OperatorContractTests {
    typealias Unary = @Sendable (Signal<Int, TestError>, TestScheduler) -> Signal<Int, TestError>

    static let operators: [(String, Unary)] = [
        ("map", { s, _ in s.map { $0 + 1 } }),
        ("mapReplace", { s, _ in s.mapReplace(0) }),
        ("filter", { s, _ in s.filter { _ in true } }),
        ("ignoreValues", { s, _ in s.ignoreValues() }),
        ("scan", { s, _ in s.scan(0, +) }),
        ("take", { s, _ in s.take(10) }),
        ("skip", { s, _ in s.skip(0) }),
        ("takeWhile", { s, _ in s.take(while: { _ in true }) }),
        ("skipWhile", { s, _ in s.skip(while: { _ in false }) }),
        ("takeUntil", { s, _ in s.take(until: Signal<Int, Never>.never) }),
        ("startWith", { s, _ in s.startWith(0) }),
        ("distinctUntilChanged", { s, _ in s.distinctUntilChanged() }),
        ("collect", { s, _ in s.collect().map(\.count) }),
        ("materialize+dematerialize", { s, _ in s.materialize().dematerialize() }),
        ("combineLatest", { s, _ in Signal.combineLatest([s, .just(0)]).map { $0[0] } }),
        ("merge", { s, _ in s.merge(with: .never) }),
        ("zip", { s, _ in Signal.zip([s, .from(Array(0..<10))]).map { $0[0] } }),
        ("concat", { s, _ in s.concat(.empty) }),
        ("then", { s, _ in s.then { .just(0) } }),
        ("flattenMap", { s, _ in s.flattenMap { .just($0) } }),
        ("concatMap", { s, _ in s.concatMap { .just($0) } }),
        ("switchToLatest", { s, _ in s.flatMap(.latest) { .just($0) } }),
        ("retry", { s, _ in s.retry(0) }),
        ("throttle", { s, t in s.throttle(.milliseconds(5), on: t) }),
        ("throttleValuesPassing", { s, t in s.throttle(.milliseconds(5), on: t, valuesPassing: { $0 > 0 }) }),
        ("rateLimit", { s, t in s.rateLimit(.milliseconds(5), on: t) }),
        ("delay", { s, t in s.delay(.milliseconds(5), on: t) }),
        ("timeout", { s, t in s.timeout(after: .seconds(60), raising: TestError(code: -1), on: t) }),
        ("deliver", { s, t in s.deliver(on: t) }),
        ("subscribe", { s, t in s.subscribe(on: t) }),
        ("doNext", { s, _ in s.doNext { _ in } }),
        ("finally", { s, _ in s.finally {} }),
        ("logEvents", { s, _ in s.logEvents("test", to: { _ in }) }),
        ("replayLazily", { s, _ in s.replayLazily() }),
        ("takeLast", { s, _ in s.takeLast(2) }),
        ("ignore", { s, _ in s.ignore(3) }),
        ("combinePrevious", { s, _ in s.combinePrevious(0) { $1 - $0 } }),
        ("aggregate", { s, _ in s.aggregate(0, +) }),
        ("any", { s, _ in s.any { $0 > 100 }.map { $0 ? 1 : 0 } }),  // true would end it at once
        ("all", { s, _ in s.all { $0 > 0 }.map { $0 ? 1 : 0 } }),
        ("not", { s, _ in s.map { $0 > 0 }.not().map { $0 ? 1 : 0 } }),
        ("and", { s, _ in s.map { [$0 > 0, true] }.and().map { $0 ? 1 : 0 } }),
        ("or", { s, _ in s.map { [$0 > 0, false] }.or().map { $0 ? 1 : 0 } }),
        ("attemptMap", { s, _ in s.attemptMap { $0 } }),
        ("reduceEach", { s, _ in s.map { ($0, $0) }.reduceEach(+) }),
        ("attempt", { s, _ in s.attempt { _ in } }),
        ("sample", { s, _ in s.sample(Signal<Int, TestError>.never) }),
        ("withLatest", { s, _ in s.withLatest(from: .just(0)).map { $0.0 } }),
        ("flatMap", { s, _ in s.flatMap(.concurrent(limit: 2)) { .just($0) } }),
        ("buffer", { s, t in s.buffer(every: .milliseconds(5), on: t).map(\.count) }),
        // An error handled by a replacement that fails with the same error: the error "passes".
        ("catch", { s, _ in s.catch { Signal<Int, TestError>.failure($0) } }),
        ("catchTo", { s, _ in s.catchTo(Signal<Int, TestError>.failure(TestError(code: 42))) }),
        ("publish+autoconnect", { s, _ in s.publish().autoconnect() }),
        ("if", { s, _ in Signal.if(s.map { $0 > 0 }, then: s, else: .empty) }),
    ]

    @Test(arguments: operators.map(\.0))
    func errorsPassThrough(name: String) {
        let scheduler = TestScheduler()
        let apply = Self.operators.first { $0.0 == name }!.1
        let source = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        apply(source.signal, scheduler).subscribe(recorder.subscriber)
        scheduler.advance(by: .milliseconds(100))
        source.sendNext(1)
        source.sendError(TestError(code: 42))
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.events.last == .error(TestError(code: 42)), "\(name): \(recorder.events)")
    }

    @Test(arguments: operators.map(\.0))
    func completionEndsTheSubscription(name: String) {
        let scheduler = TestScheduler()
        let apply = Self.operators.first { $0.0 == name }!.1
        let source = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        apply(source.signal, scheduler).subscribe(recorder.subscriber)
        scheduler.advance(by: .milliseconds(100))
        source.sendNext(1)
        source.sendCompleted()
        scheduler.advance(by: .milliseconds(100))
        let expectsCompletion = !["merge", "takeUntil"].contains(name)  // these wait for their other input
        if expectsCompletion {
            #expect(recorder.events.last == .completed, "\(name): \(recorder.events)")
        }
        #expect(recorder.events.filter(\.isTerminating).count <= 1)
    }

    @Test(arguments: operators.map(\.0))
    func disposalStopsAllWork(name: String) {
        let scheduler = TestScheduler()
        let apply = Self.operators.first { $0.0 == name }!.1
        let source = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        let subscription = apply(source.signal, scheduler).subscribe(recorder.subscriber)
        scheduler.advance(by: .milliseconds(100))
        source.sendNext(1)
        subscription.dispose()
        let seen = recorder.events.count
        source.sendNext(2)
        source.sendCompleted()
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.events.count == seen, "\(name) delivered after disposal: \(recorder.events)")
        #expect(source.subscriberCount == 0, "\(name) kept its source subscribed")
    }
}
