import Reactive
import Testing

@Suite("Operators: combining and flattening")
struct CombiningOperatorTests {
    @Test func combineLatestWaitsForEveryInputThenSendsOnEach() {
        let a = Subject<Int, TestError>()
        let b = Subject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        Signal<(Int, String), TestError>.combineLatest(a.signal, b.signal).map { "\($0)\($1)" }.subscribe(recorder.subscriber)
        a.sendNext(1)
        a.sendNext(2)
        b.sendNext("x")
        a.sendNext(3)
        b.sendNext("y")
        a.sendCompleted()
        #expect(recorder.values == ["2x", "3x", "3y"])
        #expect(recorder.events.count == 3, "not complete until all complete")
        b.sendCompleted()
        #expect(recorder.events.last == .completed)
    }

    @Test func combineLatestOfArraysErrorsAndEmpty() {
        let a = Subject<Bool, TestError>()
        let b = Subject<Bool, TestError>()
        let recorder = Recorder<Bool, TestError>()
        Signal.combineLatest([a.signal, b.signal]).and().subscribe(recorder.subscriber)
        a.sendNext(true)
        b.sendNext(false)
        b.sendNext(true)
        a.sendError(TestError(code: 2))
        b.sendNext(false)
        #expect(recorder.events == [.next(false), .next(true), .error(TestError(code: 2))])
        #expect(b.subscriberCount == 0, "an error disposes the other inputs")

        let empty = Recorder<[Int], Never>()
        Signal<Int, Never>.combineLatest([]).subscribe(empty.subscriber)
        #expect(empty.events == [.completed])
    }

    @Test func combineLatestOfThree() {
        let recorder = Recorder<Int, Never>()
        Signal<(Int, Int, Int), Never>.combineLatest(.just(1), .just(2), .from([3, 4])).reduceEach { $0 + $1 + $2 }
            .subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(6), .next(7), .completed])
    }

    @Test func mergeInterleavesAndCompletesWhenAllComplete() {
        let a = Subject<Int, Never>()
        let b = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        a.signal.merge(with: b.signal).subscribe(recorder.subscriber)
        a.sendNext(1)
        b.sendNext(2)
        a.sendCompleted()
        b.sendNext(3)
        #expect(recorder.events == [.next(1), .next(2), .next(3)])
        b.sendCompleted()
        #expect(recorder.events.last == .completed)
    }

    @Test func zipPairsByPosition() {
        let a = Subject<Int, Never>()
        let b = Subject<String, Never>()
        let recorder = Recorder<String, Never>()
        a.signal.zip(with: b.signal).map { "\($0)\($1)" }.subscribe(recorder.subscriber)
        a.sendNext(1)
        a.sendNext(2)
        b.sendNext("a")
        a.sendCompleted()
        #expect(recorder.events == [.next("1a")])
        b.sendNext("b")
        #expect(recorder.events == [.next("1a"), .next("2b"), .completed])
    }

    @Test func concatAndThen() {
        let recorder = Recorder<Int, Never>()
        Signal<Int, Never>.concat([.from([1, 2]), .just(3), .empty, .just(4)]).subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(1), .next(2), .next(3), .next(4), .completed])

        let then = Recorder<String, Never>()
        Signal<Int, Never>.from([1, 2]).then { .just("after") }.subscribe(then.subscriber)
        #expect(then.events == [.next("after"), .completed])
    }

    @Test func concatWaitsForTheFirstToComplete() {
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        first.signal.concat(second.signal).subscribe(recorder.subscriber)
        second.sendNext(0)  // not subscribed yet
        #expect(second.subscriberCount == 0)
        first.sendNext(1)
        first.sendCompleted()
        second.sendNext(2)
        #expect(recorder.values == [1, 2])
    }

    @Test func flattenMapMergesInnersAndCompletesAfterAll() {
        let outer = Subject<Int, Never>()
        let inners = [Subject<String, Never>(), Subject<String, Never>()]
        let recorder = Recorder<String, Never>()
        outer.signal.flattenMap { inners[$0].signal }.subscribe(recorder.subscriber)
        outer.sendNext(0)
        outer.sendNext(1)
        inners[0].sendNext("a")
        inners[1].sendNext("b")
        inners[0].sendNext("c")
        outer.sendCompleted()
        inners[0].sendCompleted()
        #expect(recorder.events == [.next("a"), .next("b"), .next("c")])
        inners[1].sendCompleted()
        #expect(recorder.events.last == .completed)
    }

    @Test func concatMapRunsInnersOneAtATime() {
        let outer = Subject<Int, Never>()
        let inners = [Subject<String, Never>(), Subject<String, Never>()]
        let recorder = Recorder<String, Never>()
        outer.signal.concatMap { inners[$0].signal }.subscribe(recorder.subscriber)
        outer.sendNext(0)
        outer.sendNext(1)
        inners[1].sendNext("early")  // not subscribed yet
        inners[0].sendNext("a")
        inners[0].sendCompleted()
        inners[1].sendNext("b")
        outer.sendCompleted()
        inners[1].sendCompleted()
        #expect(recorder.events == [.next("a"), .next("b"), .completed])
    }

    @Test func switchToLatestDisposesThePreviousInner() {
        let outer = Subject<Signal<String, TestError>, TestError>()
        let first = Subject<String, TestError>()
        let second = Subject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        outer.sendNext(first.signal)
        first.sendNext("a")
        outer.sendNext(second.signal)
        #expect(first.subscriberCount == 0, "the previous inner is disposed")
        first.sendNext("stale")
        second.sendNext("b")
        outer.sendCompleted()
        #expect(recorder.events == [.next("a"), .next("b")], "not complete while the latest inner runs")
        second.sendCompleted()
        #expect(recorder.events.last == .completed)
    }

    @Test func switchToLatestPassesInnerErrors() {
        let recorder = Recorder<Int, TestError>()
        Signal<Int, TestError>.from([1, 2]).flatMap(.latest) { value in
            value == 2 ? .failure(TestError(code: value)) : .just(value)
        }.subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(1), .error(TestError(code: 2))])
    }

    @Test func ifThenElseFollowsTheCondition() {
        let condition = Subject<Bool, Never>()
        let yes = Subject<String, Never>()
        let no = Subject<String, Never>()
        let recorder = Recorder<String, Never>()
        Signal.if(condition.signal, then: yes.signal, else: no.signal).subscribe(recorder.subscriber)
        condition.sendNext(true)
        yes.sendNext("y1")
        no.sendNext("n-ignored")
        condition.sendNext(false)
        yes.sendNext("y-ignored")
        no.sendNext("n1")
        #expect(recorder.values == ["y1", "n1"])
    }

    @Test func disposingAFlattenedSignalDisposesEveryInner() {
        let outer = Subject<Int, Never>()
        let inner = Subject<Int, Never>()
        let merged = outer.signal.flattenMap { _ in inner.signal }.subscribe()
        let switched = outer.signal.flatMap(.latest) { _ in inner.signal }.subscribe()
        let concatenated = outer.signal.concatMap { _ in inner.signal }.subscribe()
        outer.sendNext(1)
        #expect(inner.subscriberCount == 3)
        merged.dispose()
        switched.dispose()
        concatenated.dispose()
        #expect(inner.subscriberCount == 0 && outer.subscriberCount == 0)
    }
}
