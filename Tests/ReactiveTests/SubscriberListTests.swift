import Testing

@testable import Reactive

/// A subscription to a subject is the subscriber itself, in the subject's list: these pin down
/// what that design must still do.
@Suite("Subjects' subscriber lists")
struct SubscriberListTests {
    final class Token: Sendable {}

    @Test func oneSubscriberOnTwoSubjectsHearsBothAndLeavesBoth() {
        let first = Subject<Int, Never>()
        let second = Subject<Int, Never>()
        let received = Recorder<Int, Never>()
        let subscriber = received.subscriber
        first.signal.subscribe(subscriber)
        second.signal.subscribe(subscriber)
        first.sendNext(1)
        second.sendNext(2)
        #expect(received.values == [1, 2])
        #expect((first.subscriberCount, second.subscriberCount) == (1, 1))
        subscriber.dispose()
        #expect((first.subscriberCount, second.subscriberCount) == (0, 0))
        first.sendNext(3)
        second.sendNext(4)
        #expect(received.values == [1, 2])
    }

    @Test func aSubjectLetsItsSubscribersGoWhenItIsReleased() {
        weak var weakToken: Token?
        weak var weakSubscriber: Subscriber<Int, Never>?
        do {
            let token = Token()
            weakToken = token
            let subject = Subject<Int, Never>()
            let subscriber = Subscriber<Int, Never>(next: { _ in _ = token })
            weakSubscriber = subscriber
            subject.signal.subscribe(subscriber)
            subject.sendNext(1)
        }
        // A member holds its list strongly; the subject's release breaks that cycle, although
        // the subscription was never disposed.
        #expect(weakSubscriber == nil)
        #expect(weakToken == nil)
    }

    @Test func subscribingAfterTheSubjectIsGoneHearsNothingAndHoldsNothing() {
        weak var weakToken: Token?
        let signal = Subject<Int, Never>().signal
        do {
            let token = Token()
            weakToken = token
            signal.subscribe(next: { _ in _ = token })
        }
        #expect(weakToken == nil)
    }

    /// A subscription keeps its list by a reference counted by hand (`Subscription.list`); one
    /// that joined a list already detached is never added to it, and must still let it go.
    @Test func aSubscriptionToADetachedListLetsTheListGo() {
        weak var weakCore: SubjectCore<Int, Never>?
        var signal: Signal<Int, Never>?
        do {
            let subject = Subject<Int, Never>()
            weakCore = subject.core
            signal = subject.signal
        }
        var subscription: (any Disposable)? = signal?.subscribe(next: { _ in })
        signal = nil
        #expect(weakCore != nil, "the subscription holds its list")
        _ = subscription
        subscription = nil
        #expect(weakCore == nil)
    }

    @Test func aReplaySubjectStillReplaysAfterItIsGone() {
        let signal: Signal<Int, Never> = {
            let subject = ReplaySubject<Int, Never>(capacity: 2)
            for value in 1...3 { subject.sendNext(value) }
            return subject.signal
        }()
        let received = Recorder<Int, Never>()
        signal.subscribe(received.subscriber)
        #expect(received.values == [2, 3])
    }

    @Test func disposingWhileSubscribingOnAnotherThreadNeverLeavesAMemberBehind() async {
        let subject = Subject<Int, Never>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        let subscriber = Subscriber<Int, Never>(next: { _ in })
                        Task.detached { subscriber.dispose() }
                        subject.signal.subscribe(subscriber)
                        subscriber.dispose()
                    }
                }
            }
        }
        #expect(subject.subscriberCount == 0)
    }
}
