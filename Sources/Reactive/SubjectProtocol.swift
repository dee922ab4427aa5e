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
    /// subscribed into it (RAC `[signal subscribe:subject]`). The subject holds the subscription,
    /// as RAC's does (`didSubscribeWithDisposable:`), whether or not the caller keeps the returned
    /// disposable and whether or not the source keeps its subscriber: when the subject ends, the
    /// subscription is disposed (the source stops feeding an ended subject), and once the subject
    /// has ended, a new one is disposed at once. A feed that ends by itself leaves the subject.
    ///
    /// Subject and feed hold each other — RAC's cycle too — until either ends.
    public var input: Subscriber<Value, Failure> {
        let feeds = self.feeds
        let feed = Subscriber<Value, Failure> { [self] event in send(event) }
        feeds.add(feed)
        feed.add(ActionDisposable { [weak feeds, weak feed] in if let feed { feeds?.remove(feed) } })
        return feed
    }
}

extension Subject: SubjectProtocol {}
