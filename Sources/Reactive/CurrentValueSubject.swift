/// A subject that always has a current value and gives it to each new subscriber first: RAC's
/// `RACBehaviorSubject`, the storage behind properties.
public final class CurrentValueSubject<Value: Sendable, Failure: Error>: SubjectProtocol {
    /// Keeps the current value as its one replayed value: recorded in the order of delivery, so the
    /// value read is always the one subscribers received last.
    private let subject = ReplaySubject<Value, Failure>(capacity: 1)
    private let initial: Value

    /// Creates a subject whose current value is `value` (RAC `+behaviorSubjectWithDefaultValue:`).
    public init(_ value: Value) {
        initial = value
        subject.sendNext(value)
    }

    /// The current value: the initial one or the last sent.
    public var value: Value { subject.latestValue ?? initial }

    /// The current value, then every later event.
    public var signal: Signal<Value, Failure> { subject.signal }

    /// The number of current subscribers (for tests and diagnostics).
    public var subscriberCount: Int { subject.subscriberCount }

    /// The subscriptions that feed this subject through ``SubjectProtocol/input``: disposed when it
    /// ends (RAC `didSubscribeWithDisposable:`).
    public var feeds: CompoundDisposable { subject.feeds }

    /// The list inspection names this subject by: its replay subject's.
    var inspectedList: ObjectIdentifier { subject.inspectedList }

    /// Makes `value` current and sends it.
    public func sendNext(_ value: Value) { subject.sendNext(value) }

    /// Sends an error; the subject ends.
    public func sendError(_ error: Failure) { subject.sendError(error) }

    /// Sends completion; the subject ends.
    public func sendCompleted() { subject.sendCompleted() }

    /// Sends any event.
    public func send(_ event: Event<Value, Failure>) {
        subject.send(event)
    }
}
