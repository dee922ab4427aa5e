import Reactive
import Synchronization

/// The scenarios' simulated services, for pipelines written as programs (docs/PIPELINES.md): the
/// same services, on the session's scheduler and with the session's latency, their values as JSON
/// and their failures as ``ErrorInfo``.
public struct Services: Sendable {
    private let scheduler: any Scheduler
    private let latency: Duration
    private let requestsMade = RequestCounter()

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

    /// The multicast scenario's simulated request (RAC `rac_sendAsynchronousRequest:`): a cold
    /// signal whose every subscription starts a request, numbered from 1 in these services, that
    /// answers `"response N"` after the latency and completes.
    public func request() -> Signal<JSONValue, ErrorInfo> {
        let counter = requestsMade
        let latency = latency
        let scheduler = scheduler
        return Signal { subscriber in
            let number = counter.next()
            return scheduler.schedule(after: latency) {
                subscriber.sendNext(.string("response \(number)"))
                subscriber.sendCompleted()
            }
        }
    }

    /// `{"subscribed": email}`; fails for addresses at `fail.example` (`subscribe_failed`).
    public func subscribe(email: String) -> Signal<JSONValue, ErrorInfo> {
        SimulatedServices.postEmail(email, latency: latency, on: scheduler).mapError(\.info)
    }
}

/// How many requests ``Services/request()`` has started.
private final class RequestCounter: Sendable {
    private let count = Atomic<Int>(0)

    func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}
