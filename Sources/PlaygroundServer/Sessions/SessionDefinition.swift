import Pipelines
import Reactive
import Scenarios

/// What a session runs, running: a built-in scenario's instance, or a user's program's.
protocol SessionInstance: Sendable {
    /// Sends `event` into the input `name` (checked by the API first).
    func apply(_ event: InputEvent, to name: String)
    /// Stops every stream: no more events.
    func stop()
    /// Bytes of values a program sent lately; 0 for a scenario (what a server short of memory
    /// compares by).
    var recentBytesSent: Double { get }
    /// Halts a program because the server's memory is short (a scenario goes on).
    func haltForMemory()
}

extension SessionInstance {
    var recentBytesSent: Double { 0 }
    func haltForMemory() {}
}

/// The schedulers a session's pipeline runs on.
struct SessionClock: Sendable {
    /// The session's own: its run-loop thread (or its virtual clock, advanced on that thread).
    let session: any Scheduler
    /// A program's `background`: the queue every program shares (on a virtual clock, the clock
    /// itself under the name `background`).
    let background: any Scheduler
}

/// What a session runs: its description (inputs, streams, source) and how to start it on the
/// session's scheduler, its reports going to the sink.
struct SessionDefinition: Sendable {
    let description: PipelineDescription
    /// A program's warnings (`nil` for a built-in scenario).
    var warnings: [Diagnostic]?
    /// Starts it on `clock`'s schedulers, its reports going to `sink`.
    let start: @Sendable (_ clock: SessionClock, _ settings: ScenarioSettings, _ sink: @escaping StreamSink) -> any SessionInstance

    /// A built-in scenario.
    static func scenario(_ type: any Scenario.Type) -> SessionDefinition {
        SessionDefinition(description: type.description) { clock, settings, sink in
            ScenarioInstance(
                instance: type.init(scheduler: clock.session, settings: settings, sink: sink)
            )
        }
    }

    /// What a program session says of its program (`pipeline` in the API): its inputs and
    /// streams, as a catalogue entry has them, and its warnings; `nil` for a scenario's session.
    var programSummary: ProgramSummary? {
        warnings.map {
            ProgramSummary(
                program: description.source.swift,
                inputs: description.inputs,
                streams: description.streams,
                diagnostics: $0,
                timeScale: description.timeScale.map { Int($0 / .milliseconds(1)) }
            )
        }
    }
}

/// `pipeline` in a program session's answers.
struct ProgramSummary: Encodable {
    /// The program's text, so that a page joining the session by its link can show and edit it.
    let program: String
    let inputs: [InputDescription]
    let streams: [StreamDescription]
    let diagnostics: [Diagnostic]
    /// How long the program's story takes, in milliseconds (``PipelineDescription/timeScale``).
    let timeScale: Int?
}

/// A built-in scenario's instance as a session's running pipeline.
private struct ScenarioInstance: SessionInstance {
    let instance: any Scenario
    func apply(_ event: InputEvent, to name: String) { instance.apply(event, to: name) }
    func stop() { instance.stop() }
}
