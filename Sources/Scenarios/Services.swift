import Reactive

/// The scenarios' simulated services, for pipelines written as programs (docs/PIPELINES.md): the
/// same services, on the session's scheduler and with the session's latency, their values as JSON
/// and their failures as ``ErrorInfo``.
public struct Services: Sendable {
    private let scheduler: any Scheduler
    private let latency: Duration

    /// The services on `scheduler`, answering after `settings.serviceLatency`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings) {
        self.scheduler = scheduler
        latency = settings.serviceLatency
    }

    /// The top matches of `query` among the language names; a query containing `!fail` fails
    /// (`search_failed`).
    public func search(_ query: String) -> Signal<JSONValue, ErrorInfo> {
        SimulatedServices.search(query, in: .languages, latency: latency, on: scheduler)
            .map { .array($0.map(JSONValue.string)) }
            .mapError(\.info)
    }

    /// `true` only for `user` / `password`.
    public func signIn(username: String, password: String) -> Signal<JSONValue, ErrorInfo> {
        SimulatedServices.signIn(username: username, password: password, latency: latency, on: scheduler)
            .map(JSONValue.bool).promoteError(ErrorInfo.self)
    }

    /// `{"subscribed": email}`; fails for addresses at `fail.example` (`subscribe_failed`).
    public func subscribe(email: String) -> Signal<JSONValue, ErrorInfo> {
        SimulatedServices.postEmail(email, latency: latency, on: scheduler).mapError(\.info)
    }
}
