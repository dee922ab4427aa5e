import Reactive

/// What a client sends into one of a scenario's inputs: a value, or the end of the input's signal
/// (RAC's `sendNext:`, `sendCompleted` and `sendError:` on the subject behind a control).
public enum InputEvent: Sendable, Equatable {
    /// A value, already checked against the input's kind.
    case next(InputValue)
    /// The input's signal completes: `|` travels down the pipeline.
    case completed
    /// The input's signal fails with this error: `#` travels down the pipeline.
    case error(ErrorInfo)

    /// Whether this is a value rather than the input's end.
    public var isValue: Bool {
        if case .next = self { true } else { false }
    }
}

/// One input of a running scenario: the subject a control would feed (RAC `rac_textSignal`,
/// `rac_signalForControlEvents:`). Its failure type is ``ErrorInfo``, so a client can fail it.
protocol ScenarioInput: Sendable {
    /// Sends `event` into the input's signal. A value of another kind is ignored (the API checks
    /// kinds first); after completion or an error nothing more is sent (RAC subjects stop).
    func send(_ event: InputEvent)
}

/// An input that holds a current value, as a text field or a switch does: a new subscriber first
/// receives the current value (RAC `rac_textSignal` starts with the field's current text).
final class ValueInput<Value: Sendable>: ScenarioInput {
    private let subject: CurrentValueSubject<Value, ErrorInfo>
    private let extract: @Sendable (InputValue) -> Value?

    init(_ initial: Value, extract: @escaping @Sendable (InputValue) -> Value?) {
        subject = CurrentValueSubject(initial)
        self.extract = extract
    }

    var signal: Signal<Value, ErrorInfo> { subject.signal }
    var value: Value { subject.value }

    func send(_ event: InputEvent) {
        switch event {
        case .next(let input): if let value = extract(input) { subject.sendNext(value) }
        case .completed: subject.sendCompleted()
        case .error(let error): subject.sendError(error)
        }
    }
}

/// A text field: starts with `""`.
typealias TextInput = ValueInput<String>
/// A switch: starts `false`.
typealias BoolInput = ValueInput<Bool>

extension ValueInput where Value == String {
    /// A text field, starting empty.
    convenience init() {
        self.init("") { if case .text(let text) = $0 { text } else { nil } }
    }
}

/// A choice among options, starting with `initial`: a type of its own (not another text field),
/// so that an input declared as a choice can only be given a choice (``InputDeclaration``).
final class ChoiceInput: ScenarioInput {
    private let input: ValueInput<String>

    init(choice initial: String) {
        input = ValueInput(initial) { if case .choice(let option) = $0 { option } else { nil } }
    }

    var signal: Signal<String, ErrorInfo> { input.signal }
    var value: String { input.value }

    func send(_ event: InputEvent) { input.send(event) }
}

extension ValueInput where Value == Bool {
    /// A switch, starting `false`.
    convenience init() {
        self.init(false) { if case .bool(let flag) = $0 { flag } else { nil } }
    }
}

/// A button: each press is an event with no value (RAC `rac_signalForControlEvents:`).
final class ActionInput: ScenarioInput {
    private let subject = Subject<Void, ErrorInfo>()
    var signal: Signal<Void, ErrorInfo> { subject.signal }

    func send(_ event: InputEvent) {
        switch event {
        case .next: subject.sendNext(())
        case .completed: subject.sendCompleted()
        case .error(let error): subject.sendError(error)
        }
    }
}

extension Signal where Value: Sendable {
    /// The not-enabled refusal of a Command's `execute`, as an `errors` value; nothing for an
    /// execution that started (its values and failures arrive through the command's own signals).
    func notEnabledError<ExecutionFailure>(message: String) -> Signal<ErrorInfo, Never>
    where Failure == CommandError<ExecutionFailure> {
        Signal<ErrorInfo, Never> { subscriber in
            subscribe(
                Subscriber { event in
                    if case .error(.notEnabled) = event {
                        subscriber.sendNext(ErrorInfo(code: "not_enabled", message: message))
                    }
                    if event.isTerminating { subscriber.sendCompleted() }
                }
            )
        }
    }

    /// This signal's values, ending when `other` ends and as it ends (RAC `takeUntil:` on the
    /// other's termination, passing its error on). For streams fed by a subject that never ends
    /// by itself, such as one a side effect sends into.
    func ending<OtherValue>(with other: Signal<OtherValue, Failure>) -> Signal<Value, Failure> {
        Signal { subscriber in
            subscriber.add(
                other.subscribe(
                    Subscriber { event in
                        switch event {
                        case .next: break
                        case .error(let error): subscriber.sendError(error)
                        case .completed: subscriber.sendCompleted()
                        }
                    }
                )
            )
            subscribe(subscriber)
            return nil
        }
    }
}
