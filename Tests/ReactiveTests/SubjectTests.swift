import Locking
import Reactive
import Testing

@Suite("Subject: hot, hand-fed")
struct SubjectTests {
    /// RACSubject: subscribe, then send.
    @Test func deliversToSubscribersPresentAtSendTime() {
        let subject = Subject<String, Never>()
        let early = Recorder<String, Never>()
        subject.signal.subscribe(early.subscriber)
        subject.sendNext("1")
        let late = Recorder<String, Never>()
        subject.signal.subscribe(late.subscriber)
        subject.sendNext("2")
        #expect(early.values == ["1", "2"])
        #expect(late.values == ["2"])
    }

    @Test func deliversInSubscriptionOrder() {
        let subject = Subject<Int, Never>()
        let order = Recorder<String, Never>()
        subject.signal.subscribe(next: { order.record(.next("a\($0)")) })
        subject.signal.subscribe(next: { order.record(.next("b\($0)")) })
        subject.sendNext(1)
        #expect(order.values == ["a1", "b1"])
    }

    /// Unlike RACSubject, a late subscriber learns that the subject already ended.
    @Test func lateSubscriberReceivesTheTerminalEvent() {
        let completed = Subject<Int, TestError>()
        completed.sendCompleted()
        let afterCompletion = Recorder<Int, TestError>()
        completed.signal.subscribe(afterCompletion.subscriber)
        #expect(afterCompletion.events == [.completed])

        let failed = Subject<Int, TestError>()
        failed.sendError(TestError(code: 9))
        let afterError = Recorder<Int, TestError>()
        failed.signal.subscribe(afterError.subscriber)
        #expect(afterError.events == [.error(TestError(code: 9))])
    }

    @Test func terminationReleasesSubscribers() {
        let subject = Subject<Int, Never>()
        subject.signal.subscribe(next: { _ in })
        #expect(subject.subscriberCount == 1)
        subject.sendCompleted()
        #expect(subject.subscriberCount == 0)
        subject.sendNext(1)  // ignored, no crash
    }

    @Test func disposingOneSubscriptionLeavesTheOthers() {
        let subject = Subject<Int, Never>()
        let kept = Recorder<Int, Never>()
        let dropped = Recorder<Int, Never>()
        subject.signal.subscribe(kept.subscriber)
        let subscription = subject.signal.subscribe(dropped.subscriber)
        subject.sendNext(1)
        subscription.dispose()
        subject.sendNext(2)
        #expect(kept.values == [1, 2])
        #expect(dropped.values == [1])
        #expect(subject.subscriberCount == 1)
    }

    @Test func subscriberMaySendIntoItsOwnSubjectWithoutDeadlock() {
        let subject = Subject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.signal.subscribe(next: { value in
            recorder.record(.next(value))
            if value < 3 { subject.sendNext(value + 1) }
        })
        subject.sendNext(1)
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func manySubscribersDisposedOldestFirst() {
        let subject = Subject<Int, Never>()
        let subscriptions = (0..<10_000).map { _ in subject.signal.subscribe(next: { _ in }) }
        #expect(subject.subscriberCount == 10_000)
        for subscription in subscriptions { subscription.dispose() }
        #expect(subject.subscriberCount == 0)
    }

    @Test func manySubscribersDisposedNewestFirstAndInterleaved() {
        let subject = Subject<Int, Never>()
        let recorders = (0..<1_000).map { _ in Recorder<Int, Never>() }
        let subscriptions = recorders.map { subject.signal.subscribe($0.subscriber) }
        for (index, subscription) in subscriptions.enumerated().reversed() where index % 2 == 1 {
            subscription.dispose()
        }
        subject.sendNext(7)
        #expect(subject.subscriberCount == 500)
        for (index, recorder) in recorders.enumerated() {
            #expect(recorder.values == (index % 2 == 0 ? [7] : []))
        }
        // Disposing twice, or after the subject is gone, is harmless.
        subscriptions[0].dispose()
        subscriptions[0].dispose()
        #expect(subject.subscriberCount == 499)
    }
}

/// A subject holds the subscriptions that feed it (RACSubject `didSubscribeWithDisposable:`).
@Suite("Subjects and the subscriptions that feed them")
struct SubjectFeedTests {
    @Test func anEndedSubjectDisposesTheSubscriptionsFeedingIt() {
        let source = Subject<Int, Never>()
        let target = Subject<Int, Never>()
        source.signal.subscribe(target.input)
        #expect(source.subscriberCount == 1)
        target.sendCompleted()
        #expect(source.subscriberCount == 0, "the feed is disposed when the subject ends")
    }

    @Test func feedingASubjectThatHasEndedIsDisposedAtOnce() {
        let source = Subject<Int, Never>()
        let target = ReplaySubject<Int, Never>()
        target.sendCompleted()
        let feed = source.signal.subscribe(target.input)
        #expect(feed.isDisposed)
        #expect(source.subscriberCount == 0)
    }

    /// ReactiveObjC's RACSubjectSpec and RACReplaySubjectSpec, "should dispose of all current
    /// subscriptions upon termination", with a source that keeps nothing — not even its
    /// subscriber — once its subscribe closure returns: only the subject holds the subscription.
    @Test(arguments: ["error", "completed"])
    func anEndingSubjectDisposesFeedsNobodyElseHolds(_ ending: String) {
        for subject in AnySubject.everyKind() {
            let disposed = Lock(false)
            let source = Signal<Int, TestError> { _ in ActionDisposable { disposed.withLock { $0 = true } } }
            _ = source.subscribe(subject.input)  // the disposable is dropped, as RAC callers do
            #expect(!disposed.withLock { $0 }, "\(subject.kind)")
            subject.send(ending == "error" ? .error(TestError(code: 1)) : .completed)
            #expect(disposed.withLock { $0 }, "\(subject.kind): the feed is disposed when the subject ends")
        }
    }

    /// RACSubjectSpec's "should dispose of future subscriptions upon termination".
    @Test func anEndedSubjectDisposesFeedsAddedLater() {
        for subject in AnySubject.everyKind() {
            subject.send(.completed)
            let disposed = Lock(false)
            let source = Signal<Int, TestError> { _ in ActionDisposable { disposed.withLock { $0 = true } } }
            _ = source.subscribe(subject.input)
            #expect(disposed.withLock { $0 }, "\(subject.kind)")
        }
    }

    /// A feed that ends — disposed, or its source ended — lets go of the subject, and the subject
    /// of it: nothing stays alive.
    @Test(arguments: ["disposed", "source completed"])
    func aFinishedFeedLeavesNothingAlive(_ how: String) {
        weak var weakTarget: Subject<Int, Never>?
        weak var weakFeed: Subscriber<Int, Never>?
        do {
            let source = Subject<Int, Never>()
            let target = Subject<Int, Never>()
            weakTarget = target
            let feed = target.input
            weakFeed = feed
            let subscription = source.signal.subscribe(feed)
            source.sendNext(1)
            if how == "disposed" {
                subscription.dispose()
                #expect(!target.feeds.isDisposed, "only the feed ended, not the subject")
            } else {
                source.sendCompleted()  // forwarded: the subject ends too, as in RAC
            }
        }
        #expect(weakTarget == nil)
        #expect(weakFeed == nil)
    }

    /// A subject that ends lets go of its feeds, and its source lets go of the feed.
    @Test func aFinishedSubjectLeavesNothingAlive() {
        weak var weakTarget: ReplaySubject<Int, Never>?
        weak var weakFeed: Subscriber<Int, Never>?
        let source = Subject<Int, Never>()
        do {
            let target = ReplaySubject<Int, Never>()
            weakTarget = target
            let feed = target.input
            weakFeed = feed
            source.signal.subscribe(feed)
            target.sendCompleted()
        }
        #expect(source.subscriberCount == 0)
        #expect(weakTarget == nil)
        #expect(weakFeed == nil)
    }

    /// A source dropped without ending does not end the feed: subject and feed hold each other,
    /// as in RAC, until the subject ends.
    @Test func aFeedWhoseSourceIsDroppedLivesUntilTheSubjectEnds() {
        weak var weakFeed: Subscriber<Int, Never>?
        let target = Subject<Int, Never>()
        do {
            let source = Subject<Int, Never>()
            let feed = target.input
            weakFeed = feed
            source.signal.subscribe(feed)
        }
        #expect(weakFeed != nil, "the subject holds what feeds it")
        target.sendCompleted()
        #expect(weakFeed == nil)
    }

    /// ReactiveObjC's RACSubjectSpec and RACReplaySubjectSpec, "should dispose of all current
    /// subscriptions upon termination": the feeding timer stops although the caller dropped the
    /// disposable that `subscribe` returned.
    @Test(arguments: ["error", "completed"])
    func aTimerFeedingASubjectStopsWhenTheSubjectEnds(_ ending: String) {
        let scheduler = TestScheduler()
        let ticks = Lock(0)
        let timer = Signal.interval(.seconds(1), on: scheduler).map { _ in
            ticks.withLock { $0 += 1 }
            return 1
        }.promoteError(TestError.self)
        for subject in AnySubject.everyKind() {
            ticks.withLock { $0 = 0 }
            _ = timer.subscribe(subject.input)  // the disposable is dropped, as RAC callers do
            scheduler.advance(by: .seconds(2))
            #expect(ticks.withLock { $0 } == 2)
            subject.send(ending == "error" ? .error(TestError(code: 1)) : .completed)
            scheduler.advance(by: .seconds(5))
            #expect(ticks.withLock { $0 } == 2, "the timer stopped with the subject")
            #expect(scheduler.nextDueTime == nil, "nothing left scheduled")
        }
    }
}

/// Any kind of subject, to run one spec over all.
private struct AnySubject: Sendable {
    let kind: String
    let makeInput: @Sendable () -> Subscriber<Int, TestError>
    let send: @Sendable (Event<Int, TestError>) -> Void

    var input: Subscriber<Int, TestError> { makeInput() }

    init(_ subject: some SubjectProtocol<Int, TestError>) {
        kind = "\(type(of: subject))"
        makeInput = { subject.input }
        send = { subject.send($0) }
    }

    /// A channel terminal: what is subscribed into it feeds the other end's subject.
    init(_ terminal: ChannelTerminal<Int, TestError>) {
        kind = "ChannelTerminal"
        makeInput = { terminal.input }
        send = { terminal.send($0) }
    }

    /// One of every subject-like type, fresh.
    static func everyKind() -> [AnySubject] {
        [
            AnySubject(Subject<Int, TestError>()), AnySubject(ReplaySubject<Int, TestError>()),
            AnySubject(ReplaySubject<Int, TestError>(capacity: 1)), AnySubject(CurrentValueSubject<Int, TestError>(0)),
            AnySubject(Channel<Int, TestError>().following),
        ]
    }
}
