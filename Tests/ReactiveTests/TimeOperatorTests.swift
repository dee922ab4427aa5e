import Locking
import Testing

@testable import Reactive

@Suite("Operators: time, in virtual time")
struct TimeOperatorTests {
    /// RAC's throttle: only the latest value, once the interval passes with no newer one.
    @Test func throttleIsRACsDebounce() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([
            (0, .next("s")), (80, .next("sw")), (160, .next("swi")), (800, .next("swift")),
            (1_000, Event<String, Never>.completed),
        ])
        let recorder = TimedRecorder<String, Never>(scheduler)
        input.throttle(.milliseconds(500), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(
            recorder.matches([(660, .next("swi")), (1_000, .next("swift")), (1_000, .completed)]),
            "\(recorder.events)"
        )
    }

    @Test func throttleDropsThePendingValueOnError() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([(0, .next(1)), (100, Event<Int, TestError>.error(TestError(code: 1)))])
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        input.throttle(.milliseconds(500), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(100, .error(TestError(code: 1)))]))
    }

    @Test func throttleValuesPassingLetsOthersThroughAtOnce() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([(0, .next(1)), (100, .next(-1)), (200, .next(2)), (Int(300), Event<Int, Never>.next(3))])
        let recorder = TimedRecorder<Int, Never>(scheduler)
        input.throttle(.milliseconds(500), on: scheduler, valuesPassing: { $0 > 0 }).subscribe(recorder.subscriber)
        scheduler.run()
        // -1 passes at once and discards the pending 1; 2 is replaced by 3, sent 500 ms after it.
        #expect(recorder.matches([(100, .next(-1)), (800, .next(3))]), "\(recorder.events)")
    }

    @Test func throttleDisposalCancelsThePendingValue() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([(0, Event<Int, Never>.next(1))])
        let recorder = TimedRecorder<Int, Never>(scheduler)
        let subscription = input.throttle(.milliseconds(500), on: scheduler).subscribe(recorder.subscriber)
        scheduler.advance(by: .milliseconds(100))
        subscription.dispose()
        scheduler.run()
        #expect(recorder.events.isEmpty)
    }

    @Test func rateLimitSendsAtMostOncePerInterval() {
        let scheduler = TestScheduler()
        let input = scheduler.hot([(0, .next(1)), (100, .next(2)), (200, .next(3)), (Int(700), Event<Int, Never>.next(4))])
        let recorder = TimedRecorder<Int, Never>(scheduler)
        input.rateLimit(.milliseconds(500), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(0, .next(1)), (500, .next(3)), (1_000, .next(4))]), "\(recorder.events)")
    }

    @Test func delayShiftsValuesAndCompletionButNotErrors() {
        let scheduler = TestScheduler()
        let values = scheduler.hot([(0, .next(1)), (10, .next(2)), (Int(20), Event<Int, TestError>.completed)])
        let recorder = TimedRecorder<Int, TestError>(scheduler)
        values.delay(.milliseconds(100), on: scheduler).subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.matches([(100, .next(1)), (110, .next(2)), (120, .completed)]))

        let failing = scheduler.hot([(0, .next(1)), (Int(10), Event<Int, TestError>.error(TestError(code: 9)))])
        let failures = TimedRecorder<Int, TestError>(scheduler)
        failing.delay(.milliseconds(100), on: scheduler).subscribe(failures.subscriber)
        scheduler.run()
        #expect(failures.events.count == 1 && failures.events[0].1 == .error(TestError(code: 9)))
    }

    @Test func intervalAndTimer() {
        let scheduler = TestScheduler()
        let ticks = TimedRecorder<Duration, Never>(scheduler)
        let subscription = Signal.interval(.milliseconds(100), on: scheduler).subscribe(ticks.subscriber)
        scheduler.advance(by: .milliseconds(350))
        subscription.dispose()
        scheduler.advance(by: .seconds(1))
        #expect(ticks.events.map(\.0) == [100, 200, 300])

        let once = TimedRecorder<Duration, Never>(scheduler)
        Signal.timer(after: .milliseconds(50), on: scheduler).subscribe(once.subscriber)
        scheduler.run()
        #expect(once.events.map(\.0) == [1_400, 1_400])
        #expect(once.events.last?.1 == .completed)
    }

    @Test func timeoutFailsWithADistinctErrorUnlessCompletedInTime() {
        let scheduler = TestScheduler()
        let slow = scheduler.cold([(0, .next(1)), (Int(300), Event<Int, Never>.completed)])
        let late = TimedRecorder<Int, TimeoutError>(scheduler)
        slow.timeout(after: .milliseconds(200), on: scheduler).subscribe(late.subscriber)
        scheduler.run()
        #expect(late.matches([(0, .next(1)), (200, .error(TimeoutError(interval: .milliseconds(200))))]))

        let fast = TimedRecorder<Int, TimeoutError>(scheduler)
        scheduler.cold([(Int(100), Event<Int, Never>.completed)])
            .timeout(after: .milliseconds(200), on: scheduler).subscribe(fast.subscriber)
        scheduler.run()
        #expect(fast.events.map(\.1) == [.completed])
    }
}

@Suite("Operators: errors")
struct ErrorOperatorTests {
    @Test func catchSwitchesToTheHandlersSignal() {
        let recorder = Recorder<Int, Never>()
        Signal<Int, TestError>.just(1).concat(.failure(TestError(code: 7)))
            .catch { error in Signal<Int, Never>.just(error.code) }
            .subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(1), .next(7), .completed])

        let to = Recorder<Int, Never>()
        Signal<Int, TestError>.failure(TestError(code: 1)).catchTo(.just(0)).subscribe(to.subscriber)
        #expect(to.events == [.next(0), .completed])
    }

    @Test func retryResubscribesUpToTheCount() {
        let attempts = Lock(0)
        let flaky = Signal<Int, TestError> { subscriber in
            let attempt = attempts.withLock {
                $0 += 1
                return $0
            }
            if attempt < 3 {
                subscriber.sendError(TestError(code: attempt))
            } else {
                subscriber.sendNext(attempt)
                subscriber.sendCompleted()
            }
            return nil
        }
        let enough = Recorder<Int, TestError>()
        flaky.retry(2).subscribe(enough.subscriber)
        #expect(enough.events == [.next(3), .completed])

        attempts.withLock { $0 = 0 }
        let tooFew = Recorder<Int, TestError>()
        flaky.retry(1).subscribe(tooFew.subscriber)
        #expect(tooFew.events == [.error(TestError(code: 2))])

        attempts.withLock { $0 = 0 }
        let forever = Recorder<Int, TestError>()
        flaky.retry().subscribe(forever.subscriber)
        #expect(forever.events == [.next(3), .completed])
    }

    @Test func retryForeverStopsWhenDisposed() {
        let scheduler = TestScheduler()
        let subscriptions = Lock(0)
        let failsAfter10ms = Signal<Int, TestError>.deferred {
            subscriptions.withLock { $0 += 1 }
            return scheduler.cold([(10, .error(TestError(code: 1)))])
        }
        let subscription = failsAfter10ms.retry().subscribe()
        scheduler.advance(by: .milliseconds(35))
        #expect(subscriptions.withLock { $0 } == 4)
        subscription.dispose()
        scheduler.advance(by: .seconds(1))
        #expect(subscriptions.withLock { $0 } == 4, "no resubscription after disposal")
    }
}
