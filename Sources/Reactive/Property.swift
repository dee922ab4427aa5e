import Locking

/// A read-only value that changes over time: ReactiveSwift's `Property`, RAC's `RACObserve`
/// target. On Linux there is no KVO; properties are observed through their ``signal``.
public protocol PropertyProtocol<Value>: AnyObject, Sendable {
    /// The value type.
    associatedtype Value: Sendable
    /// The current value.
    var value: Value { get }
    /// The current value, then every change, completing when the property is released
    /// (RAC `RACObserve(object, keyPath)`).
    var signal: Signal<Value, Never> { get }
}

/// A value you can set, observe and bind: RAC's `RAC(object, keyPath)` target and
/// `RACObserve` source, with `RACChannelTo` for two-way binding (ReactiveSwift `MutableProperty`).
///
/// Thread safety: the value may be read and set from any thread; observers see the changes in the
/// order they were made.
public final class MutableProperty<Value: Sendable>: PropertyProtocol {
    private let subject: CurrentValueSubject<Value, Never>
    private let lifetime = CompoundDisposable()
    /// Completes the channel of each terminal still open, when the property is released.
    private let openTerminals = CompoundDisposable()

    /// Creates a property holding `value`.
    public init(_ value: Value) {
        subject = CurrentValueSubject(value)
    }

    deinit {
        // A released property ends its terminals' channels (RAC's KVO channel completes when its
        // target deallocates), so what they were bound to lets go of them.
        openTerminals.dispose()
        lifetime.dispose()
        subject.sendCompleted()
    }

    /// The current value; setting it notifies observers.
    public var value: Value {
        get { subject.value }
        set { subject.sendNext(newValue) }
    }

    /// The current value, then every change; completes when the property is released.
    public var signal: Signal<Value, Never> { subject.signal }

    /// The number of current subscriptions to ``signal`` (bindings included).
    var observerCount: Int { subject.subscriberCount }

    /// Binds `source` one way into this property (RAC `RAC(object, keyPath) = signal`): each value
    /// it sends becomes the property's value. The binding ends when `source` ends or the property
    /// is released; the returned disposable ends it sooner.
    @discardableResult
    public func bind<Failure: Error>(from source: Signal<Value, Failure>) -> any Disposable {
        let binding = Subscriber<Value, Failure>(next: { [weak self] value in self?.value = value })
        keepWhileActive(binding)
        return source.subscribe(binding)
    }

    /// Keeps `binding` until the property is released, or forgets it as soon as it ends (its
    /// source ended, or it was disposed), so finished bindings and what they captured are freed.
    private func keepWhileActive(_ binding: Subscription) {
        lifetime.add(binding)
        binding.add(
            ActionDisposable { [weak lifetime, weak binding] in
                if let lifetime, let binding { lifetime.remove(binding) }
            }
        )
    }

    /// A new channel terminal bound to this property (RAC `RACChannelTo(object, keyPath)`):
    /// subscribing gives the current value and later changes; sending into it sets the property,
    /// without that value coming back out of the same terminal (no feedback loop). Other observers
    /// of the property do see it.
    public func makeTerminal() -> ChannelTerminal<Value, Never> {
        let channel = Channel<Value, Never>()
        let echo = Lock<Int>(0)  // values being applied from this terminal, not to be sent back
        let fromProperty = Subscriber<Value, Never>(next: { value in
            let isEcho = echo.withLock { pending -> Bool in
                guard pending > 0 else { return false }
                pending -= 1
                return true
            }
            if !isEcho { channel.leading.sendNext(value) }
        })
        let ending = ActionDisposable { channel.leading.sendCompleted() }
        // When the terminal's side ends (completion reaches both ends of a channel), the binding
        // is over in both directions and is forgotten.
        let toProperty = Subscriber<Value, Never>(
            next: { [weak self] value in
                guard let self else { return }
                echo.withLock { $0 += 1 }
                self.value = value
            },
            completed: { fromProperty.dispose() }
        )
        openTerminals.add(ending)
        toProperty.add(ActionDisposable { [weak openTerminals] in openTerminals?.remove(ending) })
        keepWhileActive(fromProperty)
        keepWhileActive(toProperty)
        signal.subscribe(fromProperty)
        channel.leading.signal.subscribe(toProperty)
        return channel.following
    }
}

/// A read-only view of a value that changes over time (ReactiveSwift `Property`).
public final class Property<Value: Sendable>: PropertyProtocol {
    private let source: MutableProperty<Value>
    private let binding: any Disposable

    /// A property that starts with `initial` and then follows `values` (RAC `RAC(...) = signal`
    /// onto a read-only target; ReactiveSwift `Property(initial:then:)`).
    public init<Failure: Error>(initial: Value, then values: Signal<Value, Failure>) {
        source = MutableProperty(initial)
        binding = source.bind(from: values)
    }

    /// A read-only view of `property`.
    public init(_ property: MutableProperty<Value>) {
        source = property
        binding = ActionDisposable()
    }

    deinit { binding.dispose() }

    /// The current value.
    public var value: Value { source.value }

    /// The current value, then every change.
    public var signal: Signal<Value, Never> { source.signal }
}
