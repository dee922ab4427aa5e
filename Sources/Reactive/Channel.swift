/// A two-way connection with a terminal at each end: RAC's `RACChannel`.
///
/// A value sent into one terminal reaches the subscribers of the *other* terminal only, so two
/// parties can talk without hearing their own words back. An error or completion sent into either
/// terminal ends both. The following terminal replays its latest value to new subscribers
/// (capacity 1); the leading terminal replays nothing (capacity 0) — RAC's choice, so that the
/// side that owns the value (a property) hands it to whoever connects.
public final class Channel<Value: Sendable, Failure: Error>: Sendable {
    /// The end that owns the value (RAC `leadingTerminal`).
    public let leading: ChannelTerminal<Value, Failure>
    /// The end handed to others (RAC `followingTerminal`).
    public let following: ChannelTerminal<Value, Failure>

    /// Creates a channel.
    public init() {
        let leadingValues = ReplaySubject<Value, Failure>(capacity: 0)
        let followingValues = ReplaySubject<Value, Failure>(capacity: 1)
        // Errors and completion reach both ends. Each end holds the other weakly: strongly, the
        // two subjects would keep each other alive until the channel ended, which it may never do.
        leadingValues.signal.ignoreValues().subscribe(Subscriber { [weak followingValues] in followingValues?.send($0) })
        followingValues.signal.ignoreValues().subscribe(Subscriber { [weak leadingValues] in leadingValues?.send($0) })
        leading = ChannelTerminal(values: leadingValues, other: followingValues)
        following = ChannelTerminal(values: followingValues, other: leadingValues)
    }
}

/// One end of a ``Channel``: subscribe to hear the other end, send to speak to it
/// (RAC `RACChannelTerminal`).
public final class ChannelTerminal<Value: Sendable, Failure: Error>: Sendable {
    private let values: ReplaySubject<Value, Failure>
    private let other: ReplaySubject<Value, Failure>

    init(values: ReplaySubject<Value, Failure>, other: ReplaySubject<Value, Failure>) {
        self.values = values
        self.other = other
        if Inspection.isAnyThreadInspecting {
            // A terminal hears `values` and speaks into `other`: it holds both.
            Inspection.reportCreated(self, as: .channelTerminal)
            Inspection.reportHolding(values, by: self)
            Inspection.reportHolding(other, by: self)
        }
    }

    /// What the other end sends.
    public var signal: Signal<Value, Failure> { values.signal }

    /// Sends a value to the other end's subscribers.
    public func sendNext(_ value: Value) { other.sendNext(value) }

    /// Ends both ends with an error.
    public func sendError(_ error: Failure) { other.sendError(error) }

    /// Ends both ends.
    public func sendCompleted() { other.sendCompleted() }

    /// Sends any event to the other end.
    public func send(_ event: Event<Value, Failure>) { other.send(event) }

    /// A subscriber that sends into this terminal.
    public var input: Subscriber<Value, Failure> { other.input }

    /// Binds this terminal and `other` both ways (RAC `RACChannelTo(a) = RACChannelTo(b)`):
    /// what either receives is sent into the other. `other`'s current value wins at first: this
    /// terminal's initial value is skipped. It cannot loop, because a terminal never hears what is
    /// sent into it. Returns the disposable that unbinds.
    @discardableResult
    public func bind(to other: ChannelTerminal) -> any Disposable {
        let fromOther = other.signal.subscribe(input)
        let toOther = signal.skip(1).subscribe(other.input)
        return CompoundDisposable([fromOther, toOther])
    }
}
