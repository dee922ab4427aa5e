import Reactive
import Scenarios

/// A pipeline running in a session: a built-in scenario's instance, or a user's program.
protocol RunningPipeline: Sendable {
    /// Sends `event` into the input `name` (checked by the API first).
    func apply(_ event: InputEvent, to name: String)
    /// Stops every stream: no more events.
    func stop()
}

/// What a session runs: its description (inputs, streams, source) and how to start it on the
/// session's scheduler, its events going to the sink.
struct SessionPipeline: Sendable {
    let description: ScenarioDescription
    let start: @Sendable (_ scheduler: any Scheduler, _ settings: ScenarioSettings, _ sink: @escaping StreamSink) -> any RunningPipeline

    /// A built-in scenario.
    static func scenario(_ type: any Scenario.Type) -> SessionPipeline {
        SessionPipeline(description: type.description) { scheduler, settings, sink in
            ScenarioInstance(instance: type.init(scheduler: scheduler, settings: settings, sink: sink))
        }
    }
}

/// A built-in scenario's instance as a session's running pipeline.
private struct ScenarioInstance: RunningPipeline {
    let instance: any Scenario
    func apply(_ event: InputEvent, to name: String) { instance.apply(event, to: name) }
    func stop() { instance.stop() }
}
