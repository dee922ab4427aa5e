import Pipelines
import ProgramServices
import Reactive
import Scenarios

/// A user's program (docs/PIPELINES.md) as what a session runs: checked and built once when the
/// session is asked for, then built again on the session's clock when it starts.
enum ProgramSession {
    /// A program's report as a scenario's: its values as JSON, its failures a code and a message.
    /// The one translation between the two: a program's session and its drawing both use it.
    static func stageReport(_ report: StreamReport) -> StageReport {
        report.map(value: \.json) { ErrorInfo(code: $0.code, message: $0.message) }
    }

    /// The session definition of the program `text`, run by `rules`, and its warnings; or every
    /// error found.
    static func definition(
        from text: String,
        rules: ProgramRules = ProgramRules()
    ) -> Result<(definition: SessionDefinition, warnings: [Diagnostic]), ProgramRefusal> {
        let (program, diagnostics) = PipelineLanguage.parse(text, hints: rules.hints)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return .failure(ProgramRefusal(diagnostics: diagnostics)) }
        // What only building finds (an argument out of range, a value where a signal is needed),
        // found without running anything: the session builds it again, for real, on its thread.
        let built = Interpreter.examine(program, services: services(Services(scheduler: TestScheduler(), settings: ScenarioSettings())))
        guard built.diagnostics.isEmpty else { return .failure(ProgramRefusal(diagnostics: built.diagnostics)) }
        let description = PipelineDescription(
            id: "pipeline",
            title: "Your pipeline",
            description: "A program of the pipeline language, every named line a stream.",
            inputs: program.inputs.map(Self.describe),
            streams: program.summaries.map { Self.describe($0, sources: built.sources[$0.name]) },
            source: SourceListing(program: text),
            timeScale: TimeScale.milliseconds(of: program, serviceLatency: ScenarioSettings().serviceLatency).map { .milliseconds($0) }
        )
        let definition = SessionDefinition(description: description, warnings: diagnostics) { clock, settings, sink in
            ProgramInstance(
                program: program,
                limits: rules.limits,
                reports: LimitReports(rules.onLimit),
                clock: clock,
                services: services(Services(scheduler: clock.session, settings: settings)),
                sink: sink
            )
        }
        return .success((definition, diagnostics))
    }

    /// The scenarios' simulated services as the program's sources (``Services/programServices``).
    static func services(_ services: Services) -> [String: Service] {
        services.programServices
    }

    private static func describe(_ input: Pipelines.InputDefinition) -> InputDescription {
        switch input.kind {
        case .text: InputDescription(name: input.name, kind: .text, description: "A text input of the program.")
        case .number: InputDescription(name: input.name, kind: .number, description: "A number input of the program.")
        case .bool: InputDescription(name: input.name, kind: .bool, description: "A bool input of the program.")
        case .action: InputDescription(name: input.name, kind: .action, description: "An action of the program.")
        case .choice(let options):
            InputDescription(name: input.name, kind: .choice, description: "A choice of the program.", options: options)
        }
    }

    private static func describe(_ stream: StreamSummary, sources: [String]?) -> StreamDescription {
        let description =
            stream.stageOf.map { "The `\(stream.operator)` stage of `\($0)`, line \(stream.line)." }
            ?? "The stream defined on line \(stream.line)."
        return StreamDescription(
            name: stream.name,
            description: description,
            operator: stream.operator,
            from: stream.from,
            state: stream.isState,
            line: stream.line,
            column: stream.column,
            stageOf: stream.stageOf,
            sources: sources
        )
    }
}

/// Why a program cannot run: its diagnostics (errors and warnings, sorted by position).
struct ProgramRefusal: Error {
    let diagnostics: [Diagnostic]
}

/// A program running in a session.
private struct ProgramInstance: SessionInstance {
    let interpreter: Interpreter?

    init(
        program: Program,
        limits: StepBudget.Limits,
        reports: LimitReports,
        clock: SessionClock,
        services: [String: Service],
        sink: @escaping StreamSink
    ) {
        interpreter = try? Interpreter(
            program: program,
            scheduler: clock.session,
            background: clock.background,
            services: services,
            limits: limits
        ) { stream, report in
            if case .event(.error(let failure), _) = report { reports.ended(with: failure.code) }
            sink(stream, ProgramSession.stageReport(report))
        }
    }

    func apply(_ event: InputEvent, to name: String) {
        switch event {
        case .next(.text(let text)), .next(.choice(let text)): interpreter?.send(.next(.string(text)), to: name)
        case .next(.number(let number)): interpreter?.send(.next(.number(number)), to: name)
        case .next(.bool(let flag)): interpreter?.send(.next(.bool(flag)), to: name)
        case .next(.action): interpreter?.send(.next(.null), to: name)
        case .completed: interpreter?.send(.completed, to: name)
        case .error(let error): interpreter?.send(.error(PipelineFailure(code: error.code, message: error.message)), to: name)
        }
    }

    func stop() { interpreter?.stop() }

    var recentBytesSent: Double {
        guard let interpreter, !interpreter.isHalted else { return 0 }
        return interpreter.recentBytesSent
    }

    func haltForMemory() { interpreter?.haltForMemory() }

}
