import Reactive

/// Commands (RAC `RACCommand`). A definition
/// `name = command(enabled: s, allowsConcurrentExecution: b) { input in signal }.execute(on: trigger)`
/// makes one command: each value of `trigger` is an execution's input, and the stream `name` sends
/// the values of its executions, merged. `name.executing`, `name.enabled`, `name.errors` and
/// `name.executionSignals` read the command's other signals.
extension Builder {
    /// The members of a command a program may read.
    static let commandMembers: Set<String> = ["executing", "enabled", "errors", "executionSignals"]

    /// The error an execution refused while the command is disabled sends on `errors`.
    static let notEnabled = PipelineFailure(code: "not_enabled", message: "The command is disabled.")

    /// A command's signals besides its stream.
    struct CommandSignals {
        let executing: Signal<Value, PipelineFailure>
        let enabled: Signal<Value, PipelineFailure>
        let errors: Signal<Value, PipelineFailure>
        let executionSignals: Signal<Value, PipelineFailure>

        static let placeholder = CommandSignals(executing: .never, enabled: .never, errors: .never, executionSignals: .never)

        func member(_ name: String) -> Signal<Value, PipelineFailure> {
            switch name {
            case "executing": executing
            case "enabled": enabled
            case "errors": errors
            default: executionSignals
            }
        }
    }

    /// The stream of the command definition `definition` (its root is `command(…)`), recording its
    /// other signals under its name.
    mutating func compileCommand(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure> {
        let (root, links) = definition.links
        guard case .call(_, let list, let range) = root else { preconditionFailure("not a command definition") }
        let usage = "command(enabled: valid) { input in subscribe(input) }.execute(on: submit)"
        let arguments = Arguments(name: "command", list: list, range: range)
        guard links.count == 1, let execute = links.first, execute.name == "execute" else {
            throw BuildError(
                message: "a command is defined as `command(…) { … }.execute(on: trigger)`, and nothing else in its line",
                range: links.first?.range ?? range,
                hint: "read its signals in other lines: `busy = \(definition.name).executing`"
            )
        }
        let labels = list.map(\.label)
        let allowedLabels: [[String?]] = [
            [nil], ["enabled", nil], ["allowsConcurrentExecution", nil],
            ["enabled", "allowsConcurrentExecution", nil],
        ]
        guard allowedLabels.contains(labels) else {
            throw BuildError(
                message: "`command` takes `enabled:` and `allowsConcurrentExecution:` (both optional) and a closure",
                range: range,
                hint: "write `\(usage)`"
            )
        }
        let closureIndex = list.count - 1
        let work = try signalClosure(arguments, closureIndex, parameters: [])
        let enabledMaker = labels.first == "enabled" ? try compile(list[0].value, parameters: []) : nil
        var concurrentLiteral = false
        var concurrentMaker: SignalMaker?
        if let index = labels.firstIndex(of: "allowsConcurrentExecution") {
            if case .bool(let flag, _) = list[index].value {
                concurrentLiteral = flag
            } else {
                concurrentMaker = try compile(list[index].value, parameters: [])
            }
        }
        let executeArguments = Arguments(name: "execute", list: execute.arguments, range: execute.range)
        try executeArguments.expect(["on"], usage: "execute(on: submit)")
        let trigger = try compile(executeArguments[0], parameters: [])
        guard subscribes else {
            commands[definition.name] = .placeholder
            return .never
        }

        // A failed enabled signal leaves the command disabled, as the scenarios' forms do.
        let enabled = enabledMaker.map { maker in
            maker([]).map { $0 == .bool(true) }.catch { _ in Signal<Bool, Never>.just(false) }
        }
        let command = Command<Value, Value, PipelineFailure>(enabled: enabled, allowsConcurrentExecution: concurrentLiteral) { input in
            work([], input)
        }
        retained.append(command)
        if let concurrentMaker {
            subscriptions.add(concurrentMaker([]).subscribe(next: { flag in command.allowsConcurrentExecution = flag == .bool(true) }))
        }
        let refusals = Subject<Value, Never>()
        commands[definition.name] = CommandSignals(
            executing: command.executing.map(Value.bool).promoteError(PipelineFailure.self),
            enabled: command.enabled.map(Value.bool).promoteError(PipelineFailure.self),
            errors: Signal.merge([command.errors.map(Self.errorValue), refusals.signal]).promoteError(PipelineFailure.self),
            executionSignals: command.executionSignals.switchToLatest().promoteError(PipelineFailure.self)
        )
        let refused = Self.errorValue(Self.notEnabled)
        return trigger([]).flatMap(.merge) { input in
            command.execute(input).catch { error in
                // A failed execution is reported on `errors` by the command itself.
                if case .notEnabled = error { refusals.sendNext(refused) }
                return Signal<Value, PipelineFailure>.empty
            }
        }
    }

    /// `name.member`, where `name` is a command definition.
    mutating func commandMember(_ name: String, _ member: String, range: SourceRange) throws(BuildError) -> SignalMaker {
        guard Self.commandMembers.contains(member) else {
            throw BuildError(
                message: "a command has `executing`, `enabled`, `errors` and `executionSignals`, not `\(member)`",
                range: range,
                hint: "write `\(name).executing`"
            )
        }
        _ = try streamSignal(name)
        let signal = (commands[name]?.member(member) ?? .never).spendingOnSubscription(budget)
        return { _ in signal }
    }

    /// An error as a value: `{"code", "message"}`, as `catch` and the scenarios' `errors` send it.
    @Sendable static func errorValue(_ failure: PipelineFailure) -> Value {
        .object(["code": .string(failure.code), "message": .string(failure.message)])
    }
}

extension StreamDefinition {
    /// Whether the line defines a command: its chain starts with `command(…)`.
    var isCommand: Bool {
        if case .call(.name("command", _), _, _) = links.root { return true }
        return false
    }
}
