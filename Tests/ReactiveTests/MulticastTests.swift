import Locking
import Reactive
import Testing

@Suite("MulticastConnection: publish, multicast, autoconnect, replay")
struct MulticastTests {
    /// A cold "network request" that counts how often it is subscribed and disposed.
    final class Request: Sendable {
        let subscriptions = Lock(0)
        let disposals = Lock(0)
        let responder = Subject<String, Never>()

        var signal: Signal<String, Never> {
            Signal { [self] subscriber in
                subscriptions.withLock { $0 += 1 }
                let inner = responder.signal.subscribe(subscriber)
                return ActionDisposable { [self] in
                    inner.dispose()
                    disposals.withLock { $0 += 1 }
                }
            }
        }
    }

    @Test func coldSignalSubscribesOncePerSubscriber() {
        let request = Request()
        request.signal.subscribe()
        request.signal.subscribe()
        #expect(request.subscriptions.withLock { $0 } == 2)
    }

    @Test func publishSharesOneSubscriptionAfterConnect() {
        let request = Request()
        let connection = request.signal.publish()
        let a = Recorder<String, Never>()
        let b = Recorder<String, Never>()
        connection.signal.subscribe(a.subscriber)
        connection.signal.subscribe(b.subscriber)
        #expect(request.subscriptions.withLock { $0 } == 0, "nothing happens before connect")
        connection.connect()
        connection.connect()
        request.responder.sendNext("response")
        #expect(request.subscriptions.withLock { $0 } == 1)
        #expect(a.values == ["response"])
        #expect(b.values == ["response"])
    }

    /// RACMulticastConnection: publish + autoconnect shares one underlying subscription between two subscribers
    /// and disposes it when both leave — and, like RAC, never reconnects.
    @Test func autoconnectSharesAndDisposesWhenTheLastLeaves() {
        let request = Request()
        let shared = request.signal.publish().autoconnect()
        let a = Recorder<String, Never>()
        let b = Recorder<String, Never>()
        let first = shared.subscribe(a.subscriber)
        let second = shared.subscribe(b.subscriber)
        request.responder.sendNext("response")
        #expect(request.subscriptions.withLock { $0 } == 1)
        #expect(a.values == ["response"] && b.values == ["response"])

        first.dispose()
        #expect(request.disposals.withLock { $0 } == 0, "one subscriber is still there")
        second.dispose()
        #expect(request.disposals.withLock { $0 } == 1)

        shared.subscribe()
        #expect(request.subscriptions.withLock { $0 } == 1, "RAC's autoconnect never reconnects")
    }

    @Test func connectFromManyThreadsSubscribesExactlyOnce() async {
        let request = Request()
        let connection = request.signal.publish()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { connection.connect() } }
        }
        #expect(request.subscriptions.withLock { $0 } == 1)
    }

    @Test func replayConnectsEagerlyAndReplaysToLateSubscribers() {
        let request = Request()
        let replayed = request.signal.replay()
        #expect(request.subscriptions.withLock { $0 } == 1)
        request.responder.sendNext("a")
        request.responder.sendNext("b")
        let late = Recorder<String, Never>()
        replayed.subscribe(late.subscriber)
        #expect(late.values == ["a", "b"])
    }

    @Test func replayLastReplaysOnlyTheLatest() {
        let request = Request()
        let replayed = request.signal.replayLast()
        request.responder.sendNext("a")
        request.responder.sendNext("b")
        let late = Recorder<String, Never>()
        replayed.subscribe(late.subscriber)
        #expect(late.values == ["b"])
    }

    @Test func replayLazilyConnectsOnTheFirstSubscriber() {
        let request = Request()
        let replayed = request.signal.replayLazily()
        #expect(request.subscriptions.withLock { $0 } == 0)
        replayed.subscribe()
        request.responder.sendNext("a")
        let late = Recorder<String, Never>()
        replayed.subscribe(late.subscriber)
        #expect(request.subscriptions.withLock { $0 } == 1)
        #expect(late.values == ["a"])
    }
}
