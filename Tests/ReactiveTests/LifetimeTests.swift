import Reactive
import Testing

/// Nothing in the core outlives the subscriptions that needed it.
@Suite("Lifetimes")
struct LifetimeTests {
    final class Token: Sendable {}

    @Test func subjectIsReleasedWithItsLastReference() {
        weak var weakSubject: Subject<Int, Never>?
        do {
            let subject = Subject<Int, Never>()
            weakSubject = subject
            let subscription = subject.signal.map { $0 + 1 }.subscribe(next: { _ in })
            subject.sendNext(1)
            subscription.dispose()
        }
        #expect(weakSubject == nil)
    }

    @Test func disposedSubscriberAndItsClosuresAreReleased() {
        let subject = Subject<Int, Never>()
        weak var weakToken: Token?
        weak var weakSubscriber: Subscriber<Int, Never>?
        do {
            let token = Token()
            weakToken = token
            let subscriber = Subscriber<Int, Never>(next: { _ in _ = token })
            weakSubscriber = subscriber
            let subscription = subject.signal.filter { $0 > 0 }.map { $0 * 2 }.subscribe(subscriber)
            subscription.dispose()
        }
        #expect(weakSubscriber == nil)
        #expect(weakToken == nil)
        #expect(subject.subscriberCount == 0)
    }

    @Test func aChannelThatNeverEndsIsReleasedWithItsTerminals() {
        weak var weakToken: Token?
        do {
            let channel = Channel<Token, Never>()
            let token = Token()
            weakToken = token
            channel.leading.sendNext(token)  // kept by the following end's replay
        }
        #expect(weakToken == nil)
    }

    @Test func boundPropertiesAreReleased() {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let model = MutableProperty(token), field = MutableProperty(Token())
            field.makeTerminal().bind(to: model.makeTerminal())
        }
        #expect(weakToken == nil)
    }

    @Test func completedSubscriptionReleasesEverything() {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            Signal<Int, Never>.from([1, 2, 3]).map { value -> Int in _ = token; return value }.subscribe(next: { _ in })
        }
        #expect(weakToken == nil)
    }

    @Test func autoconnectedSourceIsReleasedWhenSubscribersLeave() {
        weak var weakToken: Token?
        let subject = Subject<Int, Never>()
        do {
            let token = Token()
            weakToken = token
            let shared = subject.signal.map { value -> Int in _ = token; return value }.publish().autoconnect()
            let a = shared.subscribe(next: { _ in })
            let b = shared.subscribe(next: { _ in })
            a.dispose()
            b.dispose()
        }
        #expect(subject.subscriberCount == 0)
        #expect(weakToken == nil)
    }

    @Test func runLoopSchedulerIsReleased() {
        weak var weakScheduler: RunLoopScheduler?
        do {
            let scheduler = RunLoopScheduler()
            weakScheduler = scheduler
            scheduler.schedule {}
        }
        #expect(weakScheduler == nil)
    }
}
