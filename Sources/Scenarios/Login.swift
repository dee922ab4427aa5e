import Reactive

/// ReactiveCocoa's classic sign-in form: two validated fields enable a sign-in Command.
public final class Login: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Login>] = [
        .text("username", "The user name field.", \.username),
        .text("password", "The password field.", \.password),
        .action("submit", "The sign-in button.", \.submit),
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "login",
        title: "Login validation",
        sourceFile: "Login.swift",
        description: "ReactiveCocoa's classic sign-in form. Each field is validated with map; combineLatest + and enables a "
            + "sign-in Command (RACCommand) that allows no concurrent execution. The simulated service accepts "
            + "only user / password, after about a second. Submitting while disabled reports the command's "
            + "not-enabled error instead of signing in.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "usernameValid",
                description: "Whether the user name is longer than 3 characters.",
                operator: "map",
                from: ["username"],
                state: true
            ),
            StreamDescription(
                name: "passwordValid",
                description: "Whether the password is longer than 3 characters.",
                operator: "map",
                from: ["password"],
                state: true
            ),
            StreamDescription(
                name: "signInEnabled",
                description: "Both fields valid: the sign-in command's enabled signal.",
                operator: "combineLatest + and",
                from: ["usernameValid", "passwordValid"],
                state: true
            ),
            StreamDescription(
                name: "signingIn",
                description: "Whether a sign-in is running (the command's executing).",
                operator: "Command.executing",
                from: ["submit", "signInEnabled"],
                state: true
            ),
            StreamDescription(
                name: "signInResult",
                description: "The result of the latest sign-in.",
                operator: "executionSignals + switchToLatest",
                from: ["submit"],
                state: true,
                sources: ["signInResult·signIn"]
            ),
            StreamDescription(
                name: "errors",
                description: "Submits refused because sign-in was disabled (wrong credentials are a false signInResult, not an error).",
                operator: "flattenMap",
                from: ["submit", "signInEnabled"],
                state: false
            ),
        ],
        program: ScenarioPrograms.login,
        timeScale: ScenarioSettings().serviceLatency  // a sign-in's answer
    )

    private let stages: Stages
    private let username = TextInput()
    private let password = TextInput()
    private let submit = ActionInput()

    /// Builds the pipeline on `scheduler` and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        let stages = Stages(sink: sink)  // captured by the closures below, not through self
        self.stages = stages
        // Both validations are read by signInEnabled alone: when one fails, combineLatest fails
        // and disposes its subscription to the other, which then stops, as in RAC.
        let usernameValid = stages.stream("usernameValid", username.signal.map { $0.count > 3 })
        let passwordValid = stages.stream("passwordValid", password.signal.map { $0.count > 3 })
        let signInEnabled = stages.stream("signInEnabled", Signal.combineLatest([usernameValid, passwordValid]).and())

        let latency = settings.serviceLatency
        // A failed or completed field leaves the form as it was: the command's enabled signal
        // cannot fail, so a failure counts as "not enabled" (the failure itself shows on the streams).
        let signIn = Command<(String, String), Bool, Never>(enabled: signInEnabled.catch { _ in .just(false) }) { credentials in
            stages.source(
                "signInResult·signIn",
                SimulatedServices.signIn(username: credentials.0, password: credentials.1, latency: latency, on: scheduler)
            )
        }
        stages.watch("signingIn", signIn.executing)
        stages.watch("signInResult", signIn.executionSignals.switchToLatest())

        let (username, password) = (self.username, self.password)
        let refused = submit.signal.flatMap(.merge) { _ in
            signIn.execute((username.value, password.value)).notEnabledError(
                message: "Sign-in is disabled: both fields need more than 3 characters, and no sign-in may be running."
            )
            .promoteError(ErrorInfo.self)
        }
        stages.watch("errors", refused)
        // signInEnabled is read by the command, which subscribed to it when it was made, as
        // RACCommand does; the session watches the rest.
    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }
}
