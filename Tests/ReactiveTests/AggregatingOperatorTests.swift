import Reactive
import Testing

/// Operators that fold or select values, written from RAC 2.x's specs (`RACSignalSpec`,
/// `RACStreamExamples`): `takeLast:`, `aggregateWithStart:reduce:`, `any:`/`all:`,
/// `scanWithStart:reduceWithIndex:`, `combinePreviousWithStart:reduce:`, `ignore:`,
/// `takeUntilBlock:` and `skipUntilBlock:`.
@Suite("Aggregating and selecting operators (RAC 2.x)")
struct AggregatingOperatorTests {
    func run<Value: Sendable>(_ signal: Signal<Value, TestError>) -> [Event<Value, TestError>] {
        let recorder = Recorder<Value, TestError>()
        signal.subscribe(recorder.subscriber)
        return recorder.events
    }

    func ints<S: Sequence & Sendable>(_ values: S) -> Signal<Int, TestError> where S.Element == Int { .from(values) }

    let failing = Signal<Int, TestError>.from([1, 2, 3]).concat(.failure(TestError(code: 9)))

    @Test func takeLastSendsTheLastValuesOnCompletion() {
        #expect(run(ints(1...5).takeLast(2)) == [.next(4), .next(5), .completed])
        #expect(run(ints(1...2).takeLast(5)) == [.next(1), .next(2), .completed])
        #expect(run(ints(1...5).takeLast(0)) == [.completed])
        #expect(run(failing.takeLast(2)) == [.error(TestError(code: 9))], "an error drops them")
        let subject = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.signal.takeLast(1).subscribe(recorder.subscriber)
        subject.sendNext(1)
        #expect(recorder.events.isEmpty, "nothing before completion")
        subject.sendCompleted()
        #expect(recorder.events == [.next(1), .completed])
    }

    @Test func takeLastKeepsOnlyWhatItNeedsOfALongSignal() {
        #expect(run(ints(0..<100_000).takeLast(3)) == [.next(99_997), .next(99_998), .next(99_999), .completed])
    }

    @Test func aggregateSendsTheFoldOnCompletionOrTheStartWhenEmpty() {
        #expect(run(ints(1...4).aggregate(0, +)) == [.next(10), .completed])
        #expect(run(Signal<Int, TestError>.empty.aggregate(7, +)) == [.next(7), .completed])
        #expect(run(failing.aggregate(0, +)) == [.error(TestError(code: 9))])
        #expect(
            run(ints([5, 5, 5]).aggregate(0, withIndex: { total, value, index in total + value * index }))
                == [.next(15), .completed]
        )
    }

    @Test func aggregateWithAFactoryStartsAfreshForEachSubscription() {
        let appended = Signal<Int, TestError>.from([1, 2]).aggregate(makingInitialWith: { [Int]() }, { $0 + [$1] })
        #expect(run(appended) == [.next([1, 2]), .completed])
        #expect(run(appended) == [.next([1, 2]), .completed])
    }

    @Test func anySendsTrueAtTheFirstPassingValueAndFalseOtherwise() {
        #expect(run(ints([1, 8, 3]).any { $0 > 5 }) == [.next(true), .completed])
        #expect(run(ints([1, 2, 3]).any { $0 > 5 }) == [.next(false), .completed])
        #expect(run(Signal<Int, TestError>.empty.any()) == [.next(false), .completed])
        #expect(run(Signal<Int, TestError>.just(0).any()) == [.next(true), .completed])
        #expect(run(failing.any { $0 > 5 }) == [.error(TestError(code: 9))])
    }

    @Test func anyStopsItsSourceAtTheFirstPassingValue() {
        #expect(
            run(Signal<Int, TestError>.from(0...).any { $0 == 1_000 }) == [.next(true), .completed],
            "an infinite synchronous source is stopped"
        )
    }

    @Test func allSendsFalseAtTheFirstFailingValueAndTrueOtherwise() {
        #expect(run(ints([2, 4, 5, 6]).all { $0.isMultiple(of: 2) }) == [.next(false), .completed])
        #expect(run(ints([2, 4]).all { $0.isMultiple(of: 2) }) == [.next(true), .completed])
        #expect(run(Signal<Int, TestError>.empty.all { _ in false }) == [.next(true), .completed])
        #expect(run(failing.all { $0 < 10 }) == [.error(TestError(code: 9))])
    }

    @Test func scanWithIndexPassesEachValuesIndex() {
        #expect(
            run(Signal<String, TestError>.from(["a", "b", "c"]).scan("", withIndex: { total, value, index in total + value + String(index) }))
                == [.next("a0"), .next("a0b1"), .next("a0b1c2"), .completed]
        )
        #expect(run(failing.scan(0, withIndex: { $0 + $1 + $2 })) == [.next(1), .next(4), .next(9), .error(TestError(code: 9))])
    }

    @Test func combinePreviousPairsEachValueWithTheOneBefore() {
        #expect(
            run(ints([1, 2, 4]).combinePrevious(0) { "\($0)>\($1)" })
                == [.next("0>1"), .next("1>2"), .next("2>4"), .completed]
        )
        #expect(run(failing.combinePrevious(0, +)) == [.next(1), .next(3), .next(5), .error(TestError(code: 9))])
    }

    @Test func ignoreDropsOneValue() {
        #expect(run(ints([1, 2, 1, 3]).ignore(1)) == [.next(2), .next(3), .completed])
        #expect(run(failing.ignore(2)) == [.next(1), .next(3), .error(TestError(code: 9))])
    }

    @Test func takeUntilAPredicateCompletesWithoutTheMatchingValue() {
        #expect(run(ints([1, 2, 3, 4]).take(until: { $0 == 3 })) == [.next(1), .next(2), .completed])
        #expect(run(Signal<Int, TestError>.from(0...).take(until: { $0 == 2 })) == [.next(0), .next(1), .completed])
        #expect(run(failing.take(until: { $0 > 5 })) == [.next(1), .next(2), .next(3), .error(TestError(code: 9))])
    }

    @Test func skipUntilAPredicateSendsTheMatchingValueAndTheRest() {
        #expect(run(ints([1, 2, 3, 1]).skip(until: { $0 == 2 })) == [.next(2), .next(3), .next(1), .completed])
        #expect(run(failing.skip(until: { $0 > 5 })) == [.error(TestError(code: 9))])
    }

    @Test func disposingStopsEachOfThem() {
        let subject = Subject<Int, TestError>()
        let recorder = Recorder<Bool, TestError>()
        let subscription = subject.signal.any { $0 > 5 }.subscribe(recorder.subscriber)
        let last = subject.signal.takeLast(1).subscribe(next: { _ in Issue.record("disposed, yet sent") })
        subscription.dispose()
        last.dispose()
        subject.sendNext(9)
        subject.sendCompleted()
        #expect(recorder.events.isEmpty)
        #expect(subject.subscriberCount == 0)
    }

    @Test func aNegativeTakeLastCountIsRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = Signal<Int, Never>.never.takeLast(-1)
        }
    }
}
