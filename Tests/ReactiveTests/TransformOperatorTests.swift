import Reactive
import Testing

@Suite("Operators: transforming and filtering")
struct TransformOperatorTests {
    private func events<V, F>(_ signal: Signal<V, F>) -> [Event<V, F>] {
        let recorder = Recorder<V, F>()
        signal.subscribe(recorder.subscriber)
        return recorder.events
    }

    @Test func mapAndMapReplaceAndMapError() {
        #expect(events(Signal<Int, TestError>.from([1, 2]).map { $0 * 3 }) == [.next(3), .next(6), .completed])
        #expect(events(Signal<Int, TestError>.from([1, 2]).mapReplace("x")) == [.next("x"), .next("x"), .completed])
        #expect(
            events(Signal<Int, TestError>.failure(TestError(code: 1)).mapError { TestError(code: $0.code + 1) })
                == [.error(TestError(code: 2))]
        )
    }

    @Test func reduceEachUnpacksTuples() {
        let pairs = Signal<(Int, String), Never>.from([(1, "a"), (2, "b")])
        #expect(events(pairs.reduceEach { "\($1)\($0)" }) == [.next("a1"), .next("b2"), .completed])
        let triples = Signal<(Int, Int, Int), Never>.from([(1, 2, 3)])
        #expect(events(triples.reduceEach { $0 + $1 + $2 }) == [.next(6), .completed])
    }

    @Test func filterAndIgnoreValues() {
        #expect(events(Signal<Int, Never>.from(1...5).filter { $0.isMultiple(of: 2) }) == [.next(2), .next(4), .completed])
        #expect(events(Signal<Int, Never>.from(1...5).ignoreValues()) == [.completed])
        #expect(events(Signal<Int, TestError>.failure(TestError(code: 3)).ignoreValues()) == [.error(TestError(code: 3))])
    }

    @Test func scanSendsRunningTotals() {
        #expect(events(Signal<Int, Never>.from([1, 2, 3]).scan(10, +)) == [.next(11), .next(13), .next(16), .completed])
    }

    @Test func takeAndSkip() {
        #expect(events(Signal<Int, Never>.from(1...5).take(2)) == [.next(1), .next(2), .completed])
        #expect(events(Signal<Int, Never>.from(1...5).take(0)) == [.completed])
        #expect(events(Signal<Int, Never>.from(1...5).skip(3)) == [.next(4), .next(5), .completed])
        #expect(events(Signal<Int, Never>.from(1...5).take(while: { $0 < 3 })) == [.next(1), .next(2), .completed])
        #expect(events(Signal<Int, Never>.from([1, 5, 2]).skip(while: { $0 < 3 })) == [.next(5), .next(2), .completed])
    }

    @Test func takeDisposesTheSourceWhenDone() {
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.signal.take(1).subscribe(recorder.subscriber)
        subject.sendNext(1)
        #expect(subject.subscriberCount == 0)
        subject.sendNext(2)
        #expect(recorder.events == [.next(1), .completed])
    }

    @Test func takeUntilCompletesOnTheTriggersValueOrCompletion() {
        let source = Subject<Int, Never>()
        let trigger = Subject<Void, Never>()
        let recorder = Recorder<Int, Never>()
        source.signal.take(until: trigger.signal).subscribe(recorder.subscriber)
        source.sendNext(1)
        trigger.sendNext(())
        source.sendNext(2)
        #expect(recorder.events == [.next(1), .completed])
        #expect(source.subscriberCount == 0 && trigger.subscriberCount == 0)

        let completingTrigger = Subject<Void, Never>()
        let second = Recorder<Int, Never>()
        Subject<Int, Never>().signal.take(until: completingTrigger.signal).subscribe(second.subscriber)
        completingTrigger.sendCompleted()
        #expect(second.events == [.completed])
    }

    @Test func startWithPrepends() {
        #expect(events(Signal<Int, Never>.from([2, 3]).startWith(1)) == [.next(1), .next(2), .next(3), .completed])
    }

    @Test func distinctUntilChangedLetsTheFirstValueThrough() {
        #expect(
            events(Signal<Int, Never>.from([1, 1, 2, 2, 1]).distinctUntilChanged())
                == [.next(1), .next(2), .next(1), .completed]
        )
        let byParity = Signal<Int, Never>.from([1, 3, 4, 6, 7]).distinctUntilChanged { $0 % 2 == $1 % 2 }
        #expect(events(byParity) == [.next(1), .next(4), .next(7), .completed])
    }

    @Test func booleanOperators() {
        #expect(events(Signal<Bool, Never>.from([true, false]).not()) == [.next(false), .next(true), .completed])
        #expect(events(Signal<[Bool], Never>.from([[true, true], [true, false]]).and()) == [.next(true), .next(false), .completed])
        #expect(events(Signal<[Bool], Never>.from([[false, false], [true, false]]).or()) == [.next(false), .next(true), .completed])
    }

    @Test func collectGathersEverythingOnCompletion() {
        #expect(events(Signal<Int, Never>.from([1, 2, 3]).collect()) == [.next([1, 2, 3]), .completed])
        #expect(events(Signal<Int, Never>.empty.collect()) == [.next([]), .completed])
    }

    @Test func materializeAndDematerializeRoundTrip() {
        let failing = Signal<Int, TestError>.just(1).concat(.failure(TestError(code: 5)))
        let materialized = events(failing.materialize())
        #expect(materialized == [.next(.next(1)), .next(.error(TestError(code: 5))), .completed])
        #expect(events(failing.materialize().dematerialize()) == [.next(1), .error(TestError(code: 5))])
    }

    @Test func sideEffectsRunInOrder() {
        let log = Recorder<String, Never>()
        let signal = Signal<Int, Never>.from([1])
            .doNext { log.record(.next("next \($0)")) }
            .doCompleted { log.record(.next("completed")) }
            .finally { log.record(.next("finally")) }
        #expect(events(signal) == [.next(1), .completed])
        #expect(log.values == ["next 1", "completed", "finally"])

        let errors = Recorder<String, Never>()
        _ = events(
            Signal<Int, TestError>.failure(TestError(code: 1))
                .doError { errors.record(.next("error \($0.code)")) }
                .finally { errors.record(.next("finally")) }
        )
        #expect(errors.values == ["error 1", "finally"])
    }

    /// RAC's `finally:` is `doError:` + `doCompleted:`: it runs before the terminal event reaches
    /// the subscriber, and not at all when the subscription is disposed.
    @Test func finallyRunsBeforeTheTerminalEventIsPassedOnAndNotOnDisposal() {
        let log = Recorder<String, Never>()
        _ = Signal<Int, Never>.just(1).finally { log.record(.next("finally")) }
            .subscribe(completed: { log.record(.next("subscriber completed")) })
        #expect(log.values == ["finally", "subscriber completed"])

        let disposedLog = Recorder<String, Never>()
        let subject = Subject<Int, Never>()
        let subscription = subject.signal.finally { disposedLog.record(.next("finally")) }.subscribe(next: { _ in })
        subscription.dispose()
        subject.sendCompleted()
        #expect(disposedLog.values.isEmpty)
    }
}
