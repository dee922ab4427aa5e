import Locking
import Synchronization

/// Shares one subscription to a source signal among many subscribers: RAC's
/// `RACMulticastConnection`, made by ``Signal/publish()`` or ``Signal/multicast(_:)``.
///
/// Subscribers of ``signal`` receive what the subject receives. Nothing flows until ``connect()``
/// subscribes the subject to the source — exactly once, however many threads call it.
public final class MulticastConnection<Value: Sendable, Failure: Error>: Sendable {
    private let source: Signal<Value, Failure>
    private let subject: any SubjectProtocol<Value, Failure>
    private let hasConnected = Atomic<Bool>(false)
    private let connection = SerialDisposable()

    /// Creates a connection that will subscribe `subject` to `source`.
    public init(source: Signal<Value, Failure>, subject: some SubjectProtocol<Value, Failure>) {
        self.source = source
        self.subject = subject
        if Inspection.isAnyThreadInspecting {
            Inspection.reportCreated(self, as: .multicastConnection)
            Inspection.reportHolding(subject, by: self)
            Inspection.reportAdded(connection, to: self)
        }
    }

    /// The multicast signal: subscribe to it, then ``connect()``.
    public var signal: Signal<Value, Failure> { subject.signal }

    /// Subscribes the subject to the source the first time it is called, and returns the
    /// disposable that ends that one subscription (later calls return the same one).
    @discardableResult
    public func connect() -> any Disposable {
        if hasConnected.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            connection.inner = source.subscribe(subject.input)
        }
        return connection
    }

    /// A signal that connects when its first subscriber arrives and disposes the connection when
    /// the subscriber count returns to zero (RAC `-autoconnect`).
    ///
    /// **Like RAC, unlike Rx's `refCount`:** once disposed, the connection is never made again; a
    /// later subscriber gets only what the subject still gives (a replay subject's replay, or
    /// nothing from a plain subject until it ends).
    public func autoconnect() -> Signal<Value, Failure> {
        let subscribers = Lock(0)
        return Signal { [self] subscriber in
            subscribers.withLock { $0 += 1 }
            let subscription = signal.subscribe(subscriber)
            let connection = connect()
            return ActionDisposable {
                subscription.dispose()
                let remaining = subscribers.withLock { count -> Int in
                    count -= 1
                    return count
                }
                if remaining == 0 { connection.dispose() }
            }
        }
    }
}

extension Signal {
    /// A connection that multicasts this signal through `subject` (RAC `-multicast:`).
    public func multicast(_ subject: some SubjectProtocol<Value, Failure>) -> MulticastConnection<Value, Failure> {
        MulticastConnection(source: self, subject: subject)
    }

    /// A connection that multicasts this signal through a plain ``Subject`` (RAC `-publish`):
    /// subscribers receive what arrives after they subscribe.
    public func publish() -> MulticastConnection<Value, Failure> {
        multicast(Subject())
    }

    /// Subscribes once, at once, and replays everything to every subscriber (RAC `-replay`).
    public func replay() -> Signal {
        let connection = multicast(ReplaySubject(capacity: nil))
        connection.connect()
        return connection.signal
    }

    /// Subscribes once, at once, and replays the latest value and the terminal event to every
    /// subscriber (RAC `-replayLast`).
    public func replayLast() -> Signal {
        let connection = multicast(ReplaySubject(capacity: 1))
        connection.connect()
        return connection.signal
    }

    /// Subscribes once, when the first subscriber arrives, and replays everything to every
    /// subscriber (RAC `-replayLazily`).
    public func replayLazily() -> Signal {
        let connection = multicast(ReplaySubject(capacity: nil))
        return Signal.deferred {
            connection.connect()
            return connection.signal
        }
    }
}
