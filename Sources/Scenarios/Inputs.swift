import Reactive

/// A text input: starts with `""`, as RAC's `rac_textSignal` starts with the field's current text.
final class TextInput: Sendable {
    private let subject = CurrentValueSubject<String, Never>("")
    var signal: Signal<String, Never> { subject.signal }
    var value: String { subject.value }
    func send(_ text: String) { subject.sendNext(text) }
}

/// A switch: starts `false`.
final class BoolInput: Sendable {
    private let subject = CurrentValueSubject<Bool, Never>(false)
    var signal: Signal<Bool, Never> { subject.signal }
    var value: Bool { subject.value }
    func send(_ flag: Bool) { subject.sendNext(flag) }
}

/// A button: each press is an event with no value (RAC `rac_signalForControlEvents:`).
final class ActionInput: Sendable {
    private let subject = Subject<Void, Never>()
    var signal: Signal<Void, Never> { subject.signal }
    func send() { subject.sendNext(()) }
}

extension Signal where Value: Sendable {
    /// The not-enabled refusal of a Command's `execute`, as an `errors` value; nothing for an
    /// execution that started (its values and failures arrive through the command's own signals).
    func notEnabledError<ExecutionFailure>(message: String) -> Signal<ErrorInfo, Never>
    where Failure == CommandError<ExecutionFailure> {
        Signal<ErrorInfo, Never> { subscriber in
            subscribe(Subscriber { event in
                if case .error(.notEnabled) = event {
                    subscriber.sendNext(ErrorInfo(code: "not_enabled", message: message))
                }
                if event.isTerminating { subscriber.sendCompleted() }
            })
        }
    }
}
