import Testing

@testable import Reactive

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
            let model = MutableProperty(token)
            let field = MutableProperty(Token())
            field.makeTerminal().bind(to: model.makeTerminal())
        }
        #expect(weakToken == nil)
    }

    @Test func completedSubscriptionReleasesEverything() {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            Signal<Int, Never>.from([1, 2, 3]).map { value -> Int in
                _ = token
                return value
            }.subscribe(next: { _ in })
        }
        #expect(weakToken == nil)
    }

    @Test func autoconnectedSourceIsReleasedWhenSubscribersLeave() {
        weak var weakToken: Token?
        let subject = Subject<Int, Never>()
        do {
            let token = Token()
            weakToken = token
            let shared = subject.signal.map { value -> Int in
                _ = token
                return value
            }.publish().autoconnect()
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

    /// A property kept every binding it was ever given until it was released: a long-lived model
    /// bound again and again grew without bound. A finished binding is forgotten now.
    @Test func aPropertyForgetsItsFinishedBindings() {
        let property = MutableProperty(0)
        weak var weakBinding: AnyObject?
        weak var weakSource: Subject<Int, Never>?
        do {
            let source = Subject<Int, Never>()
            weakSource = source
            weakBinding = property.bind(from: source.signal) as AnyObject
            source.sendNext(1)
            source.sendCompleted()
        }
        #expect(property.value == 1)
        #expect(weakBinding == nil, "the ended binding is released")
        #expect(weakSource == nil)
        do {
            let disposed = property.bind(from: Subject<Int, Never>().signal)
            weakBinding = disposed as AnyObject
            disposed.dispose()
        }
        #expect(weakBinding == nil, "a disposed binding is released")
    }

    /// The same for channel terminals: once a terminal's side ends, both directions of its binding
    /// to the property are released.
    @Test func aPropertyForgetsTheBindingsOfEndedTerminals() {
        let property = MutableProperty("")
        let observed = property.signal.subscribe(next: { _ in })
        let subscriptionsBefore = property.observerCount
        weak var weakTerminal: ChannelTerminal<String, Never>?
        do {
            let terminal = property.makeTerminal()
            weakTerminal = terminal
            terminal.sendNext("typed")
            #expect(property.value == "typed")
            #expect(property.observerCount == subscriptionsBefore + 1)
            terminal.sendCompleted()
        }
        #expect(property.observerCount == subscriptionsBefore, "its subscription to the property ended")
        #expect(weakTerminal == nil)
        observed.dispose()
    }
}
