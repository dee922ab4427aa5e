import Reactive

/// The "hello, signals" demo: a timer, counted with `scan` and described with `map`.
public final class Ticker: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Ticker>] = []

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "ticker",
        title: "Ticker",
        sourceFile: "Ticker.swift",
        description: "A timer signal (RAC interval:onScheduler:) counted with scan and labelled with map. No inputs: just watch values flow.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "timer",
                description: "Milliseconds since the session started, once per tick.",
                operator: "interval",
                from: [],
                state: false
            ),
            StreamDescription(
                name: "count",
                description: "How many ticks so far.",
                operator: "scan",
                from: ["timer"],
                state: true
            ),
            StreamDescription(
                name: "parity",
                description: "Whether the count is even or odd.",
                operator: "map",
                from: ["count"],
                state: true,
                levels: ["even", "odd"]
            ),
        ],
        program: ScenarioPrograms.ticker,
        timeScale: ScenarioSettings().tickInterval
    )

    private let stages: Stages

    /// Builds the pipeline on `scheduler` and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        stages = Stages(sink: sink)
        let origin = scheduler.now
        let timer = stages.stream(
            "timer",
            Signal.interval(settings.tickInterval, on: scheduler)
                .map { now in Int((now - origin) / .milliseconds(1)) }
        )
        let count = stages.stream("count", timer.scan(0) { count, _ in count + 1 })
        stages.watch("parity", count.map { $0.isMultiple(of: 2) ? "even" : "odd" })
    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }
}
