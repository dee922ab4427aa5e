import Reactive

/// The "hello, signals" demo: a timer, counted with `scan` and described with `map`.
public struct Ticker: Scenario {
    public static let description = ScenarioDescription(
        id: "ticker",
        title: "Ticker",
        description: "A timer signal (RAC interval:onScheduler:) counted with scan and labelled with map. No inputs: just watch values flow.",
        inputs: [],
        streams: [
            StreamDescription(name: "timer", description: "Milliseconds since the session started, once per tick.",
                              operator: "interval", from: [], state: false),
            StreamDescription(name: "count", description: "How many ticks so far.",
                              operator: "scan", from: ["timer"], state: true),
            StreamDescription(name: "parity", description: "Whether the count is even or odd.",
                              operator: "map", from: ["count"], state: true),
        ]
    )

    private let scheduler: any Scheduler
    private let interval: Duration

    public init(scheduler: any Scheduler, settings: ScenarioSettings) {
        self.scheduler = scheduler
        self.interval = settings.tickInterval
    }

    public func start(sink: @escaping StreamSink) -> any Disposable {
        let origin = scheduler.now
        return Signal.interval(interval, on: scheduler)
            .map { now in Int((now - origin) / .milliseconds(1)) }
            .stage("timer", to: sink)
            .scan(0) { count, _ in count + 1 }
            .stage("count", to: sink)
            .map { $0.isMultiple(of: 2) ? "even" : "odd" }
            .stage("parity", to: sink)
            .subscribe()
    }
}
