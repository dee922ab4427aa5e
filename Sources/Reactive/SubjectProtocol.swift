/// What every subject offers: a hot signal to subscribe to, and a way to send events into it.
/// RAC's subjects are at once a `RACSignal` and a `RACSubscriber`; here those are the ``signal``
/// property and the `send` methods.
public protocol SubjectProtocol<Value, Failure>: AnyObject, Sendable {
    /// The values the subject carries.
    associatedtype Value: Sendable
    /// The error the subject can fail with.
    associatedtype Failure: Error

    /// The subject as a signal to subscribe to.
    var signal: Signal<Value, Failure> { get }

    /// Sends `event` to the current subscribers; an error or completion ends the subject.
    func send(_ event: Event<Value, Failure>)

    /// Sends a value to the current subscribers (RAC `sendNext:`).
    func sendNext(_ value: Value)

    /// The subscriptions that feed the subject through ``input``, disposed when it ends.
    var feeds: CompoundDisposable { get }
}

extension SubjectProtocol {
    /// What every subject's ``send(_:)`` does: a value goes through ``sendNext(_:)``; an end goes
    /// through `end`, which delivers it and closes the subject, and then the subject's feeds are
    /// disposed (RAC's subject disposes its subscriptions when it ends).
    func send(_ event: Event<Value, Failure>, endingWith end: (Event<Value, Failure>) -> Void) {
        guard case .next(let value) = event else {
            end(event)
            feeds.dispose()
            return
        }
        sendNext(value)
    }

    /// Sends an error to the current subscribers and ends the subject (RAC `sendError:`).
    public func sendError(_ error: Failure) { send(.error(error)) }

    /// Sends completion to the current subscribers and ends the subject (RAC `sendCompleted`).
    public func sendCompleted() { send(.completed) }

    /// A subscriber that forwards every event it receives into this subject, so a signal can be
    /// subscribed into it (RAC `[signal subscribe:subject]`). The subject holds the subscription:
    /// when the subject ends, it is disposed (the source stops feeding an ended subject), and once
    /// the subject has ended, a new one is disposed at once (RAC `didSubscribeWithDisposable:`).
    /// A feed that ends by itself leaves the subject's list.
    public var input: Subscriber<Value, Failure> {
        let feeds = self.feeds
        let feed = Subscriber<Value, Failure> { [self] event in send(event) }
        // Held weakly by the subject (the feed holds the subject: strongly both ways, a source
        // dropped without ending would keep both alive).
        let entry = WeakDisposable(feed)
        feeds.add(entry)
        feed.add(ActionDisposable { [weak feeds] in feeds?.remove(entry) })
        return feed
    }
}

/// Disposes its target if the target still exists; holds it weakly.
final class WeakDisposable: Disposable, Sendable {
    private weak let target: (any Disposable & AnyObject)?

    init(_ target: any Disposable & AnyObject) { self.target = target }

    var isDisposed: Bool { target?.isDisposed ?? true }

    func dispose() { target?.dispose() }
}

extension Subject: SubjectProtocol {}
