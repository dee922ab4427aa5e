import Dispatch
import Locking
import Reactive
import Testing

/// `switchToLatest` while it subscribes to an inner signal: the thread that received the outer value
/// holds delivery meanwhile, and the inner signal's events on that thread go downstream directly.
/// Each case here is one that path must hand back to the serializer, or must not lose.
@Suite("switchToLatest while subscribing to an inner signal")
struct SwitchWhileSubscribingTests {
    @Test func anInnerThatCompletesAtOnceIsNotWaitedFor() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        for base in [10, 20] {
            outer.sendNext(
                Signal { inner in
                    inner.sendNext(base + 1)
                    inner.sendNext(base + 2)
                    inner.sendCompleted()
                    return nil
                }
            )
        }
        outer.sendCompleted()
        #expect(recorder.events == [.next(11), .next(12), .next(21), .next(22), .completed])
    }

    @Test func anInnerStillRunningIsDisposedByTheNextAndWaitedFor() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        let disposals = Lock(0)
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        for value in [1, 2] {
            outer.sendNext(
                Signal { inner in
                    inner.sendNext(value)
                    return ActionDisposable { disposals.withLock { $0 += 1 } }
                }
            )
        }
        #expect(disposals.withLock { $0 } == 1, "the first inner is disposed by the second")
        outer.sendCompleted()
        #expect(recorder.events == [.next(1), .next(2)], "not complete while the latest inner runs")
    }

    @Test func disposingFromDownstreamStopsTheInnerBeingSubscribed() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        let sent = Lock(0)
        outer.signal.switchToLatest().take(1).subscribe(recorder.subscriber)
        outer.sendNext(
            Signal { inner in
                for value in 0..<1000 where !inner.isStopped {
                    inner.sendNext(value)
                    sent.withLock { $0 += 1 }
                }
                return nil
            }
        )
        #expect(recorder.events == [.next(0), .completed])
        #expect(sent.withLock { $0 } == 1, "the inner signal sees its subscriber stopped at once")
    }

    @Test func anOuterErrorSentWhileSubscribingIsNotOvertaken() {
        let outer = Subject<Signal<String, TestError>, TestError>()
        let recorder = Recorder<String, TestError>()
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        outer.sendNext(
            Signal { inner in
                inner.sendNext("a")
                outer.sendError(TestError(code: 1))
                inner.sendNext("b")
                inner.sendCompleted()
                return nil
            }
        )
        #expect(recorder.events == [.next("a"), .error(TestError(code: 1))])
    }

    @Test func anOuterValueSentWhileSubscribingReplacesTheInner() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        let firstDisposed = Lock(false)
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        let second = Signal<Int, Never> { inner in
            inner.sendNext(2)
            inner.sendNext(3)
            return nil
        }
        outer.sendNext(
            Signal { inner in
                inner.sendNext(1)
                outer.sendNext(second)
                inner.sendNext(99)
                return ActionDisposable { firstDisposed.withLock { $0 = true } }
            }
        )
        #expect(recorder.values == [1, 2, 3])
        #expect(firstDisposed.withLock { $0 }, "what the replaced inner returns is disposed at once")
        outer.sendCompleted()
        #expect(recorder.events.count == 3, "the second inner still runs")
    }

    @Test func anotherThreadsEventsWhileSubscribingKeepTheirOrder() {
        let outer = Subject<Signal<String, Never>, Never>()
        let recorder = Recorder<String, Never>()
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        outer.sendNext(
            Signal { inner in
                let sent = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    inner.sendNext("from another thread")
                    sent.signal()
                }
                sent.wait()
                inner.sendNext("after it")
                inner.sendCompleted()
                return nil
            }
        )
        outer.sendCompleted()
        #expect(recorder.events == [.next("from another thread"), .next("after it"), .completed])
    }

    @Test func theOuterCompletingWhileSubscribingWaitsForTheInner() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        outer.signal.switchToLatest().subscribe(recorder.subscriber)
        outer.sendNext(
            Signal { inner in
                outer.sendCompleted()
                inner.sendNext(1)
                inner.sendCompleted()
                return nil
            }
        )
        #expect(recorder.events == [.next(1), .completed])
    }

    @Test func aSwitchDisposedByAnotherThreadWhileSubscribingDisposesTheInner() {
        let outer = Subject<Signal<Int, Never>, Never>()
        let recorder = Recorder<Int, Never>()
        let subscription = outer.signal.switchToLatest().subscribe(recorder.subscriber)
        let innerDisposed = Lock(false)
        outer.sendNext(
            Signal { inner in
                inner.sendNext(1)
                let disposed = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    subscription.dispose()
                    disposed.signal()
                }
                disposed.wait()
                inner.sendNext(2)
                return ActionDisposable { innerDisposed.withLock { $0 = true } }
            }
        )
        #expect(recorder.events == [.next(1)])
        #expect(innerDisposed.withLock { $0 }, "the inner subscription is disposed once it returns")
    }
}
