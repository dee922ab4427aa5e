import Reactive
import Testing

/// `sample:` and `bufferWithTime:onScheduler:` (RAC 2.x `RACSignalSpec`), in virtual time.
@Suite("sample and buffer(every:on:)")
struct SampleAndBufferTests {
    @Test func sampleSendsTheLatestValueAtEachTriggerAgainIfNothingNewCame() {
        let scheduler = TestScheduler()
        let source = scheduler.hot([(10, .next(1)), (20, .next(2)), (50, .next(3)), (90, Event<Int, TestError>.completed)])
        let sampler = scheduler.hot([(5, .next(())), (30, .next(())), (40, .next(())), (60, Event<Void, TestError>.next(()))])
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        source.sample(sampler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(30, .next(2)), (40, .next(2)), (60, .next(3)), (90, .completed)]), "\(recorder.events)")
    }

    @Test func sampleEndsWhenEitherEnds() {
        let scheduler = TestScheduler()
        let source = scheduler.hot([(10, Event<Int, TestError>.next(1))])
        let sampler = scheduler.hot([(20, .next(())), (30, Event<Void, TestError>.completed)])
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        source.sample(sampler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(20, .next(1)), (30, .completed)]))

        let later = TestScheduler()
        let failing = later.hot([(40, Event<Void, TestError>.error(TestError(code: 2)))])
        let failed = TimedRecorder<Int, TestError>(later)
        Signal<Int, TestError>.never.sample(failing).subscribe(failed.subscriber)
        later.run()
        #expect(failed.matches([(40, .error(TestError(code: 2)))]))
    }

    @Test func sampleDisposalEndsBothSubscriptions() {
        let source = Subject<Int, TestError>()
        let sampler = Subject<Void, TestError>()
        let subscription = source.signal.sample(sampler.signal).subscribe()
        #expect(source.subscriberCount == 1 && sampler.subscriberCount == 1)
        subscription.dispose()
        #expect(source.subscriberCount == 0 && sampler.subscriberCount == 0)
    }

    @Test func withLatestPairsEachValueWithTheOtherLatestAndEndsWithThisSignal() {
        let scheduler = TestScheduler()
        let source = scheduler.hot([(5, .next(0)), (20, .next(1)), (40, .next(2)), (60, .next(3)), (80, Event<Int, TestError>.completed)])
        let other = scheduler.hot([(10, .next("a")), (30, .next("b")), (50, Event<String, TestError>.completed)])
        let recorder = TimedRecorder<String, TestError>(scheduler)
        source.withLatest(from: other).map { "\($0)\($1)" }.subscribe(recorder.subscriber)
        scheduler.run()
        // 0 came before the other's first value; the other's completion keeps its latest.
        #expect(recorder.matches([(20, .next("1a")), (40, .next("2b")), (60, .next("3b")), (80, .completed)]), "\(recorder.events)")

        let later = TestScheduler()
        let failing = later.hot([(15, Event<String, TestError>.error(TestError(code: 3)))])
        let failed = TimedRecorder<String, TestError>(later)
        Signal<Int, TestError>.never.withLatest(from: failing).map { "\($0)\($1)" }.subscribe(failed.subscriber)
        later.run()
        #expect(failed.matches([(15, .error(TestError(code: 3)))]))
    }

    @Test func withLatestDisposalEndsBothSubscriptions() {
        let source = Subject<Int, TestError>()
        let other = Subject<Int, TestError>()
        let subscription = source.signal.withLatest(from: other.signal).subscribe()
        #expect(source.subscriberCount == 1 && other.subscriberCount == 1)
        subscription.dispose()
        #expect(source.subscriberCount == 0 && other.subscriberCount == 0)
    }

    @Test func bufferSendsWhatArrivedWithinEachIntervalFromItsFirstValue() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([
            (0, .next(1)), (40, .next(2)), (120, .next(3)), (130, .next(4)),
            (300, .next(5)), (350, Event<Int, TestError>.completed),
        ])
        let recorder = TimedRecorder<[Int], TestError>(scheduler)
        input.buffer(every: .milliseconds(100), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(
            recorder.matches([(100, .next([1, 2])), (220, .next([3, 4])), (350, .next([5])), (350, .completed)]),
            "\(recorder.events)"
        )
    }

    @Test func bufferSendsNoEmptyBufferAndDropsItOnError() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([(0, .next(1)), (50, Event<Int, TestError>.error(TestError(code: 3)))])
        let recorder = TimedRecorder<[Int], TestError>(scheduler)
        input.buffer(every: .milliseconds(100), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(50, .error(TestError(code: 3)))]))

        let later = TestScheduler()
        let empty = TimedRecorder<[Int], TestError>(later)
        later.hot([(500, Event<Int, TestError>.completed)]).buffer(every: .milliseconds(100), on: later)
            .subscribe(empty.subscriber)
        later.run()
        #expect(empty.matches([(500, .completed)]))
    }

    @Test func bufferDisposalCancelsThePendingTimer() {
        let scheduler = TestScheduler()
        let subject = Subject<Int, TestError>()
        let subscription = subject.signal.buffer(every: .milliseconds(100), on: scheduler)
            .subscribe(next: { _ in Issue.record("disposed, yet sent") })
        subject.sendNext(1)
        subscription.dispose()
        scheduler.run()
        #expect(subject.subscriberCount == 0)
    }

    @Test func aBufferIntervalOfZeroIsRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = Signal<Int, Never>.never.buffer(every: .zero, on: TestScheduler())
        }
    }
}
