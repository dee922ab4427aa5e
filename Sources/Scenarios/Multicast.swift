import Reactive

/// RACMulticastConnection: one simulated network request shared by two subscribers — cold (a request per
/// subscriber), published through a `Subject` and autoconnected, or replayed lazily.
public final class Multicast: Scenario {
    /// The sharing modes, as the `mode` input names them.
    enum Mode: String, CaseIterable {
        /// The plain cold signal: each subscription runs its own request.
        case cold
        /// `publish` + `autoconnect`: one request for the subscribers present while it runs.
        case publish
        /// `replayLazily`: one request, its response replayed to every later subscriber.
        case replay
    }

    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Multicast>] = [
        .choice("mode", "How the request signal is shared.", options: Mode.allCases.map(\.rawValue), \.mode),
        .action("subscribeA", "Subscriber A subscribes (again, if it was).", \.subscribeA),
        .action("subscribeB", "Subscriber B subscribes (again, if it was).", \.subscribeB),
        .action("unsubscribeA", "Subscriber A disposes its subscription.", \.unsubscribeA),
        .action("unsubscribeB", "Subscriber B disposes its subscription.", \.unsubscribeB),
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "multicast",
        title: "Multicast a request",
        sourceFile: "Multicast.swift",
        description: "One network request, shared by two subscribers (RACMulticastConnection). A cold signal runs its work once "
            + "per subscriber, so two subscribers to a request make two requests. publish + autoconnect (RACMulticastConnection) shares one subscription "
            + "through a RACSubject: one request, but a subscriber that comes after the response gets only its completion. "
            + "replayLazily shares it through a RACReplaySubject: one request, and a late subscriber still gets "
            + "the response. Changing the mode starts over with a fresh request signal.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "subscriberA",
                description: "What subscriber A sees: subscribed, the response, completed, unsubscribed.",
                operator: "switchToLatest + materialize",
                from: ["mode", "subscribeA", "unsubscribeA"],
                state: true
            ),
            StreamDescription(
                name: "subscriberB",
                description: "What subscriber B sees.",
                operator: "switchToLatest + materialize",
                from: ["mode", "subscribeB", "unsubscribeB"],
                state: true
            ),
            StreamDescription(
                name: "requestsMade",
                description: "How many requests the request signal's subscribe closure has started in this mode.",
                operator: "createSignal",
                from: ["mode"],
                state: true
            ),
            StreamDescription(
                name: "connection",
                description: "The multicast connection's subscription to the request: connected, disposed (cold: none).",
                operator: "publish / replayLazily",
                from: ["mode"],
                state: true,
                levels: ["connected", "not connected", "disposed", "none: cold"]
            ),
        ],
        timeScale: ScenarioSettings().serviceLatency  // the request's answer
    )

    private let stages: Stages
    private let mode = ChoiceInput(choice: Mode.cold.rawValue)
    private let subscribeA = ActionInput()
    private let subscribeB = ActionInput()
    private let unsubscribeA = ActionInput()
    private let unsubscribeB = ActionInput()

    /// Builds the pipeline on `scheduler` and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        stages = Stages(sink: sink)
        let requestsMade = CurrentValueSubject<Int, Never>(0)
        let connection = CurrentValueSubject<String, Never>("none: cold")
        let latency = settings.serviceLatency

        // `modes` is cold and read twice (by the requests and by the reset below): a map, cheap to
        // run twice. The requests are one signal per mode, which both subscribers must share:
        // connected once with a replay of the latest (RAC's `replayLast`), for the pipeline's life.
        let modes = mode.signal.map { Mode(rawValue: $0) ?? .cold }
        let requests = stages.connect(
            modes.map { mode -> Signal<String, Never> in
                let request = Self.request(latency: latency, on: scheduler, counting: requestsMade)
                switch mode {
                case .cold: return request
                case .publish: return Self.reporting(request, to: connection).publish().autoconnect()
                case .replay: return Self.reporting(request, to: connection).replayLazily()
                }
            }
            .multicast(ReplaySubject(capacity: 1))
        )
        stages.watch("subscriberA", Self.subscriber(to: requests, subscribe: subscribeA.signal, unsubscribe: unsubscribeA.signal))
        stages.watch("subscriberB", Self.subscriber(to: requests, subscribe: subscribeB.signal, unsubscribe: unsubscribeB.signal))
        // Reset for a new mode only after both subscribers have left the old one's request.
        stages.add(
            modes.subscribe(next: { mode in
                requestsMade.sendNext(0)
                connection.sendNext(mode == .cold ? "none: cold" : "not connected")
            })
        )
        stages.watch("requestsMade", requestsMade.signal.distinctUntilChanged().promoteError(ErrorInfo.self).ending(with: mode.signal))
        stages.watch("connection", connection.signal.distinctUntilChanged().promoteError(ErrorInfo.self).ending(with: mode.signal))
    }

    /// The simulated request (RAC `rac_sendAsynchronousRequest:`): a cold signal whose every
    /// subscription starts a request, counted, that responds after `latency`.
    private static func request(
        latency: Duration,
        on scheduler: any Scheduler,
        counting requestsMade: CurrentValueSubject<Int, Never>
    ) -> Signal<String, Never> {
        Signal { subscriber in
            let number = requestsMade.value + 1
            requestsMade.sendNext(number)
            return scheduler.schedule(after: latency) {
                subscriber.sendNext("response \(number)")
                subscriber.sendCompleted()
            }
        }
    }

    /// `source`, reporting on `connection` when it is subscribed to and when that subscription is
    /// disposed — what a multicast connection does to it.
    private static func reporting(_ source: Signal<String, Never>, to connection: CurrentValueSubject<String, Never>) -> Signal<String, Never> {
        Signal { subscriber in
            connection.sendNext("connected")
            let subscription = source.subscribe(subscriber.forwarder)
            return ActionDisposable {
                subscription.dispose()
                connection.sendNext("disposed")
            }
        }
    }

    /// A subscriber's view: each `subscribe` (re)subscribes to the current mode's request signal,
    /// each `unsubscribe` disposes; a new mode disposes the subscription of the old one.
    private static func subscriber(
        to requests: Signal<Signal<String, Never>, ErrorInfo>,
        subscribe: Signal<Void, ErrorInfo>,
        unsubscribe: Signal<Void, ErrorInfo>
    ) -> Signal<String, ErrorInfo> {
        let commands = Signal.merge([subscribe.mapReplace(true), unsubscribe.mapReplace(false)])
        return requests.flatMap(.latest) { request in
            commands.flatMap(.latest) { subscribes -> Signal<String, ErrorInfo> in
                guard subscribes else { return .just("unsubscribed") }
                return request.materialize().map { event -> String in
                    switch event {
                    case .next(let response): "next: \(response)"
                    case .error: "error"
                    case .completed: "completed"
                    }
                }
                .startWith("subscribed")
                .promoteError(ErrorInfo.self)
            }
        }
    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }
}
