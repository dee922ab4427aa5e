import Locking
import Reactive
import Testing

/// `repeat`, `initially:`, `try:`/`tryMap:`, `takeUntilReplacement:`, `+switch:cases:default:`,
/// `+startLazilyWithScheduler:block:`/`+startEagerlyWithScheduler:block:`, `bind:` and `groupBy:`
/// (RAC 2.x `RACSignalSpec`).
@Suite("Control operators (RAC 2.x)")
struct ControlOperatorTests {
    func run<Value: Sendable>(_ signal: Signal<Value, TestError>) -> [Event<Value, TestError>] {
        let recorder = Recorder<Value, TestError>()
        signal.subscribe(recorder.subscriber)
        return recorder.events
    }

    @Test func repeatResubscribesOnCompletionUntilStopped() {
        let subscriptions = Lock(0)
        let counted = Signal<Int, TestError> { subscriber in
            let count = subscriptions.withLock { count -> Int in
                count += 1
                return count
            }
            subscriber.sendNext(count)
            subscriber.sendCompleted()
            return nil
        }
        #expect(run(counted.repeat().take(3)) == [.next(1), .next(2), .next(3), .completed])
        #expect(subscriptions.withLock { $0 } == 3, "take stopped the repetition")
    }

    @Test func repeatOfALongSynchronousSignalLoopsInsteadOfRecursing() {
        let values = Lock(0)
        Signal<Int, TestError>.just(1).repeat().take(100_000).subscribe(next: { _ in values.withLock { $0 += 1 } })
        #expect(values.withLock { $0 } == 100_000)
    }

    @Test func repeatEndsAtAnErrorAndStopsWhenDisposed() {
        #expect(run(Signal<Int, TestError>.failure(TestError(code: 4)).repeat()) == [.error(TestError(code: 4))])
        let subject = Subject<Int, TestError>()
        let subscription = subject.signal.repeat().subscribe()
        #expect(subject.subscriberCount == 1)
        subscription.dispose()
        #expect(subject.subscriberCount == 0)
    }

    @Test func initiallyRunsBeforeEachSubscription() {
        let log = Lock<[String]>([])
        let signal = Signal<Int, TestError> { subscriber in
            log.withLock { $0.append("subscribed") }
            subscriber.sendCompleted()
            return nil
        }.initially { log.withLock { $0.append("initially") } }
        #expect(log.withLock { $0 }.isEmpty, "nothing runs before a subscription")
        signal.subscribe()
        signal.subscribe()
        #expect(log.withLock { $0 } == ["initially", "subscribed", "initially", "subscribed"])
    }

    @Test func attemptFailsAtTheFirstRejectedValue() {
        let checked = Signal<Int, TestError>.from([1, 2, 3, 4]).attempt { value throws(TestError) in
            if value == 3 { throw TestError(code: value) }
        }
        #expect(run(checked) == [.next(1), .next(2), .error(TestError(code: 3))])
        let mapped = Signal<Int, TestError>.from([1, 2, 3]).attemptMap { value throws(TestError) -> String in
            guard value < 3 else { throw TestError(code: 30) }
            return "\(value)"
        }
        #expect(run(mapped) == [.next("1"), .next("2"), .error(TestError(code: 30))])
        #expect(run(Signal<Int, TestError>.from(1...2).attemptMap { $0 * 2 }) == [.next(2), .next(4), .completed])
    }

    @Test func attemptAsASourceSendsTheResultOrTheError() {
        #expect(run(Signal<Int, TestError>.attempt { 5 }) == [.next(5), .completed])
        #expect(
            run(Signal<Int, TestError>.attempt { () throws(TestError) -> Int in throw TestError(code: 6) })
                == [.error(TestError(code: 6))]
        )
    }

    @Test func takeUntilReplacementSwitchesAtTheReplacementsFirstEvent() {
        let source = Subject<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        source.signal.take(untilReplacement: replacement.signal).subscribe(recorder.subscriber)
        source.sendNext(1)
        source.sendCompleted()  // ignored: the result ends with the replacement
        #expect(recorder.events == [.next(1)])
        replacement.sendNext(10)
        replacement.sendNext(11)
        replacement.sendCompleted()
        #expect(recorder.events == [.next(1), .next(10), .next(11), .completed])
    }

    @Test func takeUntilReplacementDisposesTheSourceAndPassesItsErrors() {
        let source = Subject<Int, TestError>()
        let replacement = Subject<Int, TestError>()
        source.signal.take(untilReplacement: replacement.signal).subscribe()
        replacement.sendNext(1)
        #expect(source.subscriberCount == 0, "replaced: the source was disposed")

        let failing = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        let subscription = failing.signal.take(untilReplacement: .never).subscribe(recorder.subscriber)
        failing.sendError(TestError(code: 8))
        #expect(recorder.events == [.error(TestError(code: 8))])
        subscription.dispose()
    }

    @Test func switchFollowsTheCaseOfTheLatestKey() {
        let keys = Subject<String, TestError>()
        let a = Subject<Int, TestError>()
        let b = Subject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        Signal.switch(keys.signal, cases: ["a": a.signal, "b": b.signal], default: .just(0)).subscribe(recorder.subscriber)
        keys.sendNext("a")
        a.sendNext(1)
        b.sendNext(99)
        keys.sendNext("b")
        a.sendNext(99)
        b.sendNext(2)
        keys.sendNext("zzz")
        #expect(recorder.events == [.next(1), .next(2), .next(0)])
        #expect(a.subscriberCount == 0 && b.subscriberCount == 0)
    }

    @Test func switchWithoutADefaultFailsForAnUnknownKey() {
        let signal = Signal.switch(
            Signal<String, TestError>.from(["x", "nope"]),
            cases: ["x": .just(1)],
            noMatch: { _ in TestError(code: 404) }
        )
        #expect(run(signal) == [.next(1), .error(TestError(code: 404))])
    }

    @Test func startLazilyRunsOnceOnTheSchedulerWhenFirstSubscribedAndReplays() {
        let scheduler = TestScheduler()
        let runs = Lock(0)
        let signal = Signal<Int, TestError>.startLazily(on: scheduler) { subscriber in
            runs.withLock { $0 += 1 }
            subscriber.sendNext(7)
            subscriber.sendCompleted()
        }
        scheduler.run()
        #expect(runs.withLock { $0 } == 0, "lazy: nothing before a subscriber")
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        signal.subscribe(first.subscriber)
        #expect(first.events.isEmpty, "subscribed on the scheduler")
        scheduler.run()
        signal.subscribe(second.subscriber)
        scheduler.run()
        #expect(runs.withLock { $0 } == 1)
        #expect(first.events == [.next(7), .completed] && second.events == first.events)
    }

    @Test func startEagerlyRunsAtOnceOnTheScheduler() {
        let scheduler = TestScheduler()
        let runs = Lock(0)
        let signal = Signal<Int, TestError>.startEagerly(on: scheduler) { subscriber in
            runs.withLock { $0 += 1 }
            subscriber.sendNext(7)
        }
        scheduler.run()
        #expect(runs.withLock { $0 } == 1, "eager: ran without a subscriber")
        let recorder = Recorder<Int, TestError>()
        signal.subscribe(recorder.subscriber)
        scheduler.run()
        #expect(recorder.events == [.next(7)] && runs.withLock { $0 } == 1)
    }

    @Test func bindMergesTheSignalsItMakesAndStopsOnRequest() {
        let bound = Signal<Int, TestError>.from(1...10).bind {
            { value, stop in
                if value == 3 { stop = true }
                return Signal.from([value, value * 10])
            }
        }
        #expect(run(bound) == [1, 10, 2, 20, 3, 30].map { .next($0) } + [.completed])
        let stoppedByNil = Signal<Int, TestError>.from(1...10).bind { { value, _ in value < 3 ? .just(value) : nil } }
        #expect(run(stoppedByNil) == [.next(1), .next(2), .completed])
    }

    @Test func bindMakesItsBinderPerSubscriptionAndWaitsForInnerSignals() {
        let made = Lock(0)
        let inner = Subject<String, TestError>()
        let bound = Signal<Int, TestError>.from([1]).bind {
            made.withLock { $0 += 1 }
            return { _, stop in
                stop = true
                return inner.signal
            }
        }
        let recorder = Recorder<String, TestError>()
        bound.subscribe(recorder.subscriber)
        bound.subscribe()
        #expect(made.withLock { $0 } == 2)
        inner.sendNext("a")
        #expect(recorder.events == [.next("a")], "stopped, but an inner signal still runs")
        inner.sendCompleted()
        #expect(recorder.events == [.next("a"), .completed])
        #expect(
            run(Signal<Int, TestError>.failure(TestError(code: 1)).bind { { value, _ in .just(value) } })
                == [.error(TestError(code: 1))]
        )
    }

    @Test func groupBySendsEachGroupBeforeItsFirstValue() {
        let source = Subject<Int, TestError>()
        let groups = Lock<[Int: Recorder<String, TestError>]>([:])
        let keys = Recorder<Int, TestError>()
        source.signal.groupBy({ $0 % 3 }, transform: { "\($0)" }).subscribe(
            next: { group in
                let recorder = Recorder<String, TestError>()
                groups.withLock { $0[group.key] = recorder }
                keys.record(.next(group.key))
                group.signal.subscribe(recorder.subscriber)
            },
            completed: { keys.record(.completed) }
        )
        for value in [1, 2, 4, 3, 7] { source.sendNext(value) }
        source.sendCompleted()
        let recorded = groups.withLock { $0 }
        #expect(keys.events == [.next(1), .next(2), .next(0), .completed])
        #expect(recorded[1]?.events == [.next("1"), .next("4"), .next("7"), .completed])
        #expect(recorded[2]?.events == [.next("2"), .completed])
        #expect(recorded[0]?.events == [.next("3"), .completed])
    }

    @Test func groupByEndsEveryGroupWithTheSourcesError() {
        let source = Subject<Int, TestError>()
        let inGroups = Recorder<Int, TestError>()
        let outer = Recorder<Int, TestError>()
        source.signal.groupBy { $0 % 2 }.subscribe(
            next: { group in
                group.signal.subscribe(inGroups.subscriber)
            },
            error: { outer.record(.error($0)) }
        )
        source.sendNext(1)
        source.sendNext(2)
        source.sendError(TestError(code: 5))
        #expect(inGroups.events == [.next(1), .next(2), .error(TestError(code: 5)), .error(TestError(code: 5))])
        #expect(outer.events == [.error(TestError(code: 5))])
    }
}
