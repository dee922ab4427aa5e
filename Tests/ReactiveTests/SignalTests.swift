import Locking
import Reactive
import Testing

@Suite("Signal: cold, created with a subscribe closure")
struct SignalTests {
    @Test func subscribeClosureRunsOncePerSubscription() {
        let runs = Lock(0)
        let signal = Signal<Int, Never> { subscriber in
            runs.withLock { $0 += 1 }
            subscriber.sendNext(1)
            subscriber.sendNext(2)
            subscriber.sendCompleted()
            return nil
        }
        #expect(runs.withLock { $0 } == 0, "a cold signal does nothing until subscribed")
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>()
        signal.subscribe(first.subscriber)
        signal.subscribe(second.subscriber)
        #expect(runs.withLock { $0 } == 2)
        #expect(first.events == [.next(1), .next(2), .completed])
        #expect(second.events == [.next(1), .next(2), .completed])
    }

    /// RACSignal: the disposable returned by createSignal's block runs when the signal completes.
    @Test func returnedDisposableRunsOnCompletion() {
        let disposed = Lock(false)
        let signal = Signal<String, Never> { subscriber in
            subscriber.sendNext("1")
            subscriber.sendCompleted()
            return ActionDisposable { disposed.withLock { $0 = true } }
        }
        let recorder = Recorder<String, Never>()
        signal.subscribe(recorder.subscriber)
        #expect(recorder.events == [.next("1"), .completed])
        #expect(disposed.withLock { $0 })
    }

    @Test func nothingIsDeliveredAfterATerminalEvent() {
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.sendNext(1)
            subscriber.sendError(TestError(code: 1))
            subscriber.sendNext(2)
            subscriber.sendCompleted()
            return nil
        }
        let recorder = Recorder<Int, TestError>()
        signal.subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(1), .error(TestError(code: 1))])
    }

    @Test func disposingStopsDeliveryAndReleasesResources() {
        let subject = Subject<Int, Never>()
        let cleanedUp = Lock(false)
        let signal = Signal<Int, Never> { subscriber in
            let inner = subject.signal.subscribe(next: { subscriber.sendNext($0) })
            return ActionDisposable {
                inner.dispose()
                cleanedUp.withLock { $0 = true }
            }
        }
        let recorder = Recorder<Int, Never>()
        let subscription = signal.subscribe(recorder.subscriber)
        subject.sendNext(1)
        subscription.dispose()
        subject.sendNext(2)
        #expect(recorder.values == [1])
        #expect(cleanedUp.withLock { $0 })
        #expect(subject.subscriberCount == 0)
    }

    @Test func constructors() {
        let just = Recorder<Int, Never>()
        Signal.just(7).subscribe(just.subscriber)
        #expect(just.events == [.next(7), .completed])

        let empty = Recorder<Int, Never>()
        Signal.empty.subscribe(empty.subscriber)
        #expect(empty.events == [.completed])

        let failure = Recorder<Int, TestError>()
        Signal.failure(TestError(code: 3)).subscribe(failure.subscriber)
        #expect(failure.events == [.error(TestError(code: 3))])

        let never = Recorder<Int, Never>()
        Signal.never.subscribe(never.subscriber)
        #expect(never.events.isEmpty)

        let sequence = Recorder<Int, Never>()
        Signal.from([1, 2, 3]).subscribe(sequence.subscriber)
        #expect(sequence.events == [.next(1), .next(2), .next(3), .completed])
    }

    @Test func deferredMakesASignalPerSubscription() {
        let made = Lock(0)
        let signal = Signal<Int, Never>.deferred {
            let count = made.withLock {
                $0 += 1
                return $0
            }
            return .just(count)
        }
        #expect(made.withLock { $0 } == 0)
        let recorder = Recorder<Int, Never>()
        signal.subscribe(recorder.subscriber)
        signal.subscribe(recorder.subscriber)
        #expect(recorder.values == [1, 2])
    }

    @Test func mapFilterAndScan() {
        let recorder = Recorder<Int, Never>()
        Signal.from(1...6)
            .map { $0 * 10 }
            .filter { $0 % 20 == 0 }
            .scan(0, +)
            .subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(20), .next(60), .next(120), .completed])
    }
}

@Suite("Debugging aids")
struct DebuggingTests {
    @Test func namedSignalKeepsItsName() {
        let signal = Signal<Int, Never>.just(1).named("answer")
        #expect(signal.name == "answer")
        #expect(Signal<Int, Never>.never.name == "")
    }

    @Test func logEventsReportsEveryEventAndPassesItOn() {
        let lines = Recorder<String, Never>()
        let values = Recorder<Int, Never>()
        let subscription = Signal.from([1, 2]).logEvents("numbers", to: { lines.record(.next($0)) })
            .subscribe(values.subscriber)
        subscription.dispose()
        #expect(values.events == [.next(1), .next(2), .completed])
        #expect(
            lines.values == [
                "numbers: subscribed", "numbers: next 1", "numbers: next 2",
                "numbers: completed", "numbers: disposed",
            ]
        )
    }
}
