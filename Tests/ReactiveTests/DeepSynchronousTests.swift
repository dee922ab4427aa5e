import Reactive
import Testing

/// Long runs of signals that complete synchronously — each one's completion starting the next —
/// must run as loops: a recursion one stack frame deeper per signal overflowed the stack and took
/// the whole process down (5,000 inner signals of a user's program were enough). Each test here
/// crashed the test process before the fix.
@Suite("Thousands of synchronous signals in a row, without overflowing the stack")
struct DeepSynchronousTests {
    static let count = 100_000

    /// A signal that sends `value` and completes from its subscribe closure (not `just`, which the
    /// flattenings deliver without subscribing).
    static func single(_ value: Int) -> Signal<Int, TestError> {
        Signal { subscriber in
            subscriber.sendNext(value)
            subscriber.sendCompleted()
            return nil
        }
    }

    @Test func concatOfAnArrayOfSynchronousSignals() {
        let recorder = Recorder<Int, TestError>()
        Signal.concat((0..<Self.count).map(Self.single)).subscribe(recorder.subscriber)
        #expect(recorder.values == Array(0..<Self.count))
        #expect(recorder.events.last == .completed)
    }

    @Test func concatOfSynchronousSignalsAfterOneThatCompletesLater() {
        let first = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        Signal.concat([first.signal] + (0..<Self.count).map(Self.single)).subscribe(recorder.subscriber)
        #expect(recorder.events.isEmpty)
        first.sendCompleted()
        #expect(recorder.values == Array(0..<Self.count))
        #expect(recorder.events.last == .completed)
    }

    /// Inner signals wait behind `limit` running ones; the running ones then complete, and every
    /// waiting one starts — and completes — in turn.
    @Test(arguments: [1, 2, 3], [false, true])
    func waitingSynchronousInnerSignalsStartInALoop(limit: Int, areJust: Bool) {
        let outer = Subject<Signal<Int, TestError>, TestError>()
        let running = (0..<limit).map { _ in Subject<Int, TestError>() }
        let recorder = Recorder<Int, TestError>()
        outer.signal.flatten(.concurrent(limit: limit)).subscribe(recorder.subscriber)
        for subject in running { outer.sendNext(subject.signal) }
        for value in 0..<Self.count { outer.sendNext(areJust ? .just(value) : Self.single(value)) }
        outer.sendCompleted()
        #expect(recorder.events.isEmpty)
        for subject in running { subject.sendCompleted() }
        #expect(recorder.values == Array(0..<Self.count), "in order: one slot frees at a time")
        #expect(recorder.events.last == .completed)
    }

    @Test func aNewInnerSignalWaitsBehindThoseAlreadyWaiting() {
        // Two slots: `a` and `b` run, `c` and `d` wait. `a` completes: `c` starts, completes, and
        // then — its slot free, `d` not yet started — sends `e` into the outer signal. `e` must
        // wait behind `d`, not take the free slot ahead of it.
        let outer = Subject<Signal<String, TestError>, TestError>()
        let a = Subject<String, TestError>()
        let b = Subject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        outer.signal.flatten(.concurrent(limit: 2)).subscribe(recorder.subscriber)
        outer.sendNext(a.signal)
        outer.sendNext(b.signal)
        outer.sendNext(
            Signal { subscriber in
                subscriber.sendNext("c")
                subscriber.sendCompleted()
                outer.sendNext(.just("e"))
                return nil
            }
        )
        outer.sendNext(.just("d"))
        a.sendCompleted()
        b.sendNext("b")
        #expect(recorder.values == ["c", "d", "e", "b"])
    }

    @Test func retryAndRepeatOfSynchronousSignalsStillLoop() {
        let repeated = Recorder<Int, TestError>()
        Self.single(1).repeat().take(Self.count).subscribe(repeated.subscriber)
        #expect(repeated.values.count == Self.count)
        let retried = Recorder<Int, TestError>()
        Signal<Int, TestError>.failure(TestError(code: 1)).retry(Self.count).subscribe(retried.subscriber)
        #expect(retried.events == [.error(TestError(code: 1))])
    }
}
