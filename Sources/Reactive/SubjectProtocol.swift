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

    /// Sends `event` to the current subscribers.
    func send(_ event: Event<Value, Failure>)
}

extension SubjectProtocol {
    /// A subscriber that forwards every event it receives into this subject, so a signal can be
    /// subscribed into it (RAC `[signal subscribe:subject]`).
    public var input: Subscriber<Value, Failure> {
        Subscriber { [self] event in send(event) }
    }
}

extension Subject: SubjectProtocol {}
