import Locking
import Reactive

/// ReactiveCocoa's instant-search example (RWTwitterInstant): validate, throttle, search — switching to the
/// latest query.
public final class Search: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Search>] = [
        .text("query", "The search box.", \.query)
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "search",
        title: "Throttled search",
        sourceFile: "Search.swift",
        description: "ReactiveCocoa's instant-search example (RWTwitterInstant). Queries longer than 2 characters pass the filter, RAC's throttle "
            + "(a debounce: only the latest value once 0.5 s pass without a newer one) waits for typing to pause, "
            + "and each throttled query searches the ISO 639-3 language names. The original flattens with flattenMap; "
            + "we switch to the latest instead, so a newer query cancels the search in flight and a stale "
            + "response can never overwrite a newer one. A query containing !fail makes its search fail; the "
            + "failure is caught inside the flattening, so the next query still works.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "validQuery",
                description: "Queries longer than 2 characters.",
                operator: "filter",
                from: ["query"],
                state: true
            ),
            StreamDescription(
                name: "throttled",
                description: "The latest valid query, once typing pauses for the throttle interval.",
                operator: "throttle",
                from: ["validQuery"],
                state: true
            ),
            StreamDescription(
                name: "searching",
                description: "Whether a search is in flight.",
                operator: "switchToLatest + map",
                from: ["throttled"],
                state: true
            ),
            StreamDescription(
                name: "results",
                description: "The top matches of the latest search.",
                operator: "switchToLatest",
                from: ["throttled"],
                state: true,
                sources: ["results·search"]
            ),
            StreamDescription(
                name: "cancelled",
                description: "Queries whose search was superseded by a newer one.",
                operator: "switchToLatest (disposal)",
                from: ["throttled"],
                state: false
            ),
            StreamDescription(
                name: "errors",
                description: "Failed searches, caught inside the flattening.",
                operator: "catch",
                from: ["throttled"],
                state: false
            ),
        ],
        program: ScenarioPrograms.search,
        // A query waits out the throttle, then its search.
        timeScale: ScenarioSettings().throttleInterval + ScenarioSettings().serviceLatency
    )

    private enum Outcome: Sendable {
        case started(String)
        case results([String])
        case failed(ErrorInfo)
    }

    private let stages: Stages
    private let query = TextInput()

    /// Builds the pipeline on `scheduler` and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        let stages = Stages(sink: sink)  // captured by the closures below, not through self
        self.stages = stages
        let validQuery = stages.stream("validQuery", query.signal.filter { $0.count > 2 })
        let throttled = stages.stream("throttled", validQuery.throttle(settings.throttleInterval, on: scheduler))

        let cancelled = Subject<String, Never>()
        let latency = settings.serviceLatency
        // Four streams read the searches: shared, as RAC code shares (`[[… publish] autoconnect]`),
        // so that each query searches once, not once per reader.
        let outcomes =
            throttled.flatMap(.latest) { query -> Signal<Outcome, ErrorInfo> in
                // Each search is a subscription of its own, reported as `results·search`.
                let search = stages.source("results·search", SimulatedServices.search(query, in: .languages, latency: latency, on: scheduler))
                    .map(Outcome.results)
                    .catch { error in Signal<Outcome, Never>.just(.failed(error.info)) }
                    .startWith(.started(query))
                return Self.reportingCancellation(of: search, query: query, to: cancelled).promoteError(ErrorInfo.self)
            }
            .publish().autoconnect()
        stages.watch(
            "searching",
            outcomes.map { outcome -> Bool in
                if case .started = outcome { return true }
                return false
            }.distinctUntilChanged()
        )
        stages.watch(
            "results",
            outcomes.flatMap(.merge) { outcome -> Signal<[String], ErrorInfo> in
                if case .results(let names) = outcome { return .just(names) }
                return .empty
            }
        )
        // The cancellations are reported by a side effect, so their stream ends when the searches do.
        stages.watch("cancelled", cancelled.signal.promoteError(ErrorInfo.self).ending(with: outcomes))
        stages.watch(
            "errors",
            outcomes.flatMap(.merge) { outcome -> Signal<ErrorInfo, ErrorInfo> in
                if case .failed(let error) = outcome { return .just(error) }
                return .empty
            }
        )
    }

    /// `search`, reporting `query` on `cancelled` when it is disposed before it finished — which is
    /// what switchToLatest does to a search superseded by a newer query.
    private static func reportingCancellation(
        of search: Signal<Outcome, Never>,
        query: String,
        to cancelled: Subject<String, Never>
    ) -> Signal<Outcome, Never> {
        Signal { subscriber in
            // Marked before the completion is passed on: completing also disposes this subscription.
            let finished = Lock(false)
            let subscription = search.doCompleted { finished.withLock { $0 = true } }.subscribe(subscriber.forwarder)
            return ActionDisposable {
                subscription.dispose()
                if !finished.withLock({ $0 }) { cancelled.sendNext(query) }
            }
        }
    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }
}
