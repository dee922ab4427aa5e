import Reactive
import Testing

/// `flatten(.concurrent(limit:))`: RAC's `flatten:` (ReactiveObjC `RACSignalSpec`, "-flatten:").
@Suite("flatten with a limit (RAC flatten:)")
struct FlattenConcurrentTests {
    let outer = Subject<Int, TestError>()
    let inners = (0..<3).map { _ in Subject<String, TestError>() }
    let recorder = Recorder<String, TestError>()

    func flattened(limit: Int) -> any Disposable {
        let inners = inners
        return outer.signal.map { inners[$0].signal }.flatten(.concurrent(limit: limit)).subscribe(recorder.subscriber)
    }

    @Test func subscribesToAtMostTheLimitAndStartsWaitingSignalsInOrder() {
        _ = flattened(limit: 2)
        outer.sendNext(0)
        outer.sendNext(1)
        outer.sendNext(2)
        #expect(inners.map(\.subscriberCount) == [1, 1, 0], "the third waits")
        inners[2].sendNext("unseen")
        inners[0].sendNext("a")
        inners[1].sendNext("b")
        inners[1].sendCompleted()
        #expect(inners.map(\.subscriberCount) == [1, 0, 1], "the third took the finished one's place")
        inners[2].sendNext("c")
        inners[0].sendNext("d")
        #expect(recorder.values == ["a", "b", "c", "d"])
    }

    @Test func completesOnlyAfterTheOuterAndEveryInnerIncludingWaitingOnes() {
        _ = flattened(limit: 1)
        outer.sendNext(0)
        outer.sendNext(1)
        outer.sendCompleted()
        inners[0].sendCompleted()
        #expect(recorder.events.isEmpty, "the waiting inner has not completed")
        inners[1].sendNext("b")
        inners[1].sendCompleted()
        #expect(recorder.events == [.next("b"), .completed])
    }

    @Test func anInnerErrorEndsItAndNoWaitingSignalIsSubscribed() {
        _ = flattened(limit: 1)
        outer.sendNext(0)
        outer.sendNext(1)
        inners[0].sendError(TestError(code: 7))
        #expect(recorder.events == [.error(TestError(code: 7))])
        #expect(inners[1].subscriberCount == 0)
        #expect(outer.subscriberCount == 0, "the outer subscription was disposed")
    }

    @Test func anOuterErrorEndsItAndDisposesRunningInners() {
        _ = flattened(limit: 2)
        outer.sendNext(0)
        outer.sendError(TestError(code: 1))
        #expect(recorder.events == [.error(TestError(code: 1))])
        #expect(inners[0].subscriberCount == 0)
    }

    @Test func disposalDisposesRunningInnersAndForgetsWaitingOnes() {
        let subscription = flattened(limit: 1)
        outer.sendNext(0)
        outer.sendNext(1)
        subscription.dispose()
        inners[0].sendCompleted()
        #expect(inners.map(\.subscriberCount) == [0, 0, 0])
        #expect(outer.subscriberCount == 0)
        #expect(recorder.events.isEmpty)
    }

    @Test func aLimitOfOneIsConcat() {
        let values = Recorder<Int, Never>()
        Signal<Int, Never>.from(0..<4).flatMap(.concurrent(limit: 1)) { value in .from([value, value]) }
            .subscribe(values.subscriber)
        #expect(values.events == [0, 0, 1, 1, 2, 2, 3, 3].map { .next($0) } + [.completed])
    }

    @Test func aLimitBelowOneIsRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = Signal<Signal<Int, Never>, Never>.never.flatten(.concurrent(limit: 0))
        }
    }
}
