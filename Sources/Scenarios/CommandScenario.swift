import Reactive

/// ReactiveCocoa's classic subscribe form on RACCommand: enabled, executing, execution
/// signals and errors, with concurrent execution switchable.
public final class CommandScenario: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<CommandScenario>] = [
        .text("email", "The e-mail field.", \.email),
        .action("execute", "The subscribe button.", \.execute),
        .bool("allowsConcurrentExecution", "Whether an execution may start while another runs.", \.allowsConcurrentExecution),
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "command",
        title: "Command enablement",
        sourceFile: "CommandScenario.swift",
        description: "ReactiveCocoa's classic subscribe form, driven by a RACCommand. The command is enabled while the e-mail "
            + "is valid AND (not executing OR concurrent execution allowed). Each execution posts the address to a "
            + "simulated service that takes about a second and fails for addresses at fail.example. errors merges "
            + "the command's errors (hot: a failure reaches every watcher present when it happens) with the "
            + "not-enabled failures of execute.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "emailValid",
                description: "Whether the e-mail matches ^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$.",
                operator: "map",
                from: ["email"],
                state: true
            ),
            StreamDescription(
                name: "enabled",
                description: "emailValid AND (not executing OR allowsConcurrentExecution).",
                operator: "Command.enabled",
                from: ["emailValid", "executing", "allowsConcurrentExecution"],
                state: true
            ),
            StreamDescription(
                name: "executing",
                description: "Whether an execution is running.",
                operator: "Command.executing",
                from: ["execute"],
                state: true
            ),
            StreamDescription(
                name: "executionValues",
                description: "The values of the latest execution.",
                operator: "executionSignals + switchToLatest",
                from: ["execute"],
                state: false,
                sources: ["executionValues·subscribe"]
            ),
            StreamDescription(
                name: "errors",
                description: "Failed executions and executes refused while disabled.",
                operator: "merge",
                from: ["execute", "enabled"],
                state: false
            ),
        ],
        program: ScenarioPrograms.command,
        timeScale: ScenarioSettings().serviceLatency  // an execution's request
    )

    private let stages: Stages
    private let email = TextInput()
    private let execute = ActionInput()
    private let allowsConcurrentExecution = BoolInput()

    /// Builds the pipeline on `scheduler` and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        let stages = Stages(sink: sink)  // captured by the closures below, not through self
        self.stages = stages
        let emailValid = stages.stream("emailValid", email.signal.map(Self.isValidEmail))
        let latency = settings.serviceLatency
        let command = Command<String, JSONValue, ServiceError>(enabled: emailValid.catch { _ in .just(false) }) { email in
            stages.source("executionValues·subscribe", SimulatedServices.postEmail(email, latency: latency, on: scheduler))
        }
        stages.add(allowsConcurrentExecution.signal.subscribe(next: { command.allowsConcurrentExecution = $0 }))
        stages.watch("enabled", command.enabled)
        stages.watch("executing", command.executing)
        stages.watch("executionValues", command.executionSignals.switchToLatest())

        let email = self.email
        let refused = execute.signal.flatMap(.merge) { _ in
            command.execute(email.value).notEnabledError(
                message: "The command is disabled: the e-mail is invalid, or an execution is running and concurrent execution is off."
            )
            .promoteError(ErrorInfo.self)
        }
        // The command's errors never end; the stream ends when the execute button's signal does.
        stages.watch("errors", Signal.merge([command.errors.map(\.info).promoteError(ErrorInfo.self).ending(with: execute.signal), refused]))

    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }

    /// `^[^@\s]+@[^@\s]+\.[^@\s]+$`
    static func isValidEmail(_ text: String) -> Bool {
        text.wholeMatch(of: /[^@\s]+@[^@\s]+\.[^@\s]+/) != nil
    }
}
