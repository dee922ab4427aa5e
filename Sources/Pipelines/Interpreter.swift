import Locking
import Reactive

// The running program as a server holds it: building it, feeding its inputs, stopping it, and
// what it reports. How its expressions become signals is the builder's, `Builder.swift`.

/// A running program: every input a subject (hot), every named stream a cold signal, as in RAC —
/// each stream that reads it subscribes to it again, so its work runs once per subscription, and
/// sharing is written with `replay()`, `replayLazily()` or `publish().autoconnect()`. The streams
/// no other stream reads are subscribed by the session; every subscription's events go to the sink
/// under the stream's (or stage's) name. A command line is the exception: it is an object, like
/// RAC's `RACCommand`, subscribed once and shared. Built from a program without errors; a program
/// that cannot be built gives diagnostics instead.
public final class Interpreter: Sendable {
    /// The shortest interval a time-based operator or source accepts, in milliseconds.
    public static let minimumInterval = 10.0

    /// What a program's streams send.
    public typealias Sink = @Sendable (_ stream: String, _ event: Event<Value, PipelineFailure>) -> Void

    /// What a program's streams do, one subscription at a time: each report names the
    /// subscription (unique in the program, from 1) that was made, delivered an event, or ended;
    /// none only for the `budget_exceeded` that ends a stream never subscribed to.
    public typealias Reporter = @Sendable (_ stream: String, _ report: StreamReport) -> Void

    private let inputs: [String: Subject<Value, PipelineFailure>]
    private let subscriptions: CompoundDisposable
    private let budget: StepBudget
    private let probe: StreamProbe
    /// Objects the streams read but do not keep alive (a command's subjects): released only after
    /// ``stop()`` disposed the subscriptions, so none ends a stream by going away.
    private let retained: [any AnyObject & Sendable]
    /// The program's `marbles(…)` sources, in the order built: what a marble diagram of the
    /// program's streams draws with (their smallest frame, their letters).
    public let marbleSources: [MarbleSource]

    /// Builds `program` as ``init(program:scheduler:background:services:limits:reporter:)`` does, reporting
    /// only the streams' events, to `sink`.
    public convenience init(
        program: Program,
        scheduler: any Scheduler,
        background: (any Scheduler)? = nil,
        services: [String: Service] = [:],
        limits: StepBudget.Limits = .standard,
        sink: @escaping Sink
    ) throws(Diagnostics) {
        try self.init(program: program, scheduler: scheduler, background: background, services: services, limits: limits) { stream, report in
            if case .event(let event, _) = report { sink(stream, event) }
        }
    }

    /// Builds `program` (which must have no errors) on `scheduler` and starts it: from now on every
    /// subscription to a named stream or stage, its events and its end go to `reporter`.
    /// `scheduler` is the program's `session` scheduler (where inputs arrive and time-based
    /// operators run) and `background` the one `deliver(on: background)` and
    /// `subscribe(on: background)` move work to; without one, `background` is `scheduler` under the
    /// name `background` (a virtual clock's hop: same thread, another name). Throws the diagnostics of what cannot be built (a wrong
    /// argument, a closure where a signal is needed…). A program that runs out of its
    /// ``StepBudget`` is halted: each stream not ended yet ends with `budget_exceeded`.
    /// An input declared by the program and given in `inputs` reads that signal (a test's cold
    /// marbles) instead of a subject fed by ``send(_:to:)``.
    public init(
        program: Program,
        scheduler: any Scheduler,
        background: (any Scheduler)? = nil,
        services: [String: Service] = [:],
        limits: StepBudget.Limits = .standard,
        inputs external: [String: Signal<Value, PipelineFailure>] = [:],
        reporter: @escaping Reporter
    ) throws(Diagnostics) {
        let subscriptions = CompoundDisposable()
        let probe = StreamProbe(limit: limits.subscriptions, reporter: reporter)
        let names = program.summaries.map(\.name)  // streams and stages, in program order
        let budget = StepBudget(limits) { exhaustion in
            // Each subscription not ended yet ends with the reason, then its disposal; a name never
            // subscribed to ends too. Nothing else is reported.
            let unended = probe.halt(names)
            subscriptions.dispose()
            let failure = PipelineFailure.budgetExceeded(exhaustion, limits)
            for (name, ids) in unended {
                guard !ids.isEmpty else {
                    probe.end(name, .event(.error(failure), subscription: nil))
                    continue
                }
                for id in ids {
                    probe.end(name, .event(.error(failure), subscription: id))
                    probe.end(name, .disposed(id))
                }
            }
        }
        var builder = Builder(
            program: program,
            scheduler: MeteredScheduler(scheduler, budget: budget),
            background: MeteredScheduler(background ?? NamedScheduler(scheduler, name: "background"), budget: budget),
            services: services,
            budget: budget,
            subscriptions: subscriptions,
            probe: probe,
            external: external
        )
        builder.buildAll()
        guard builder.errors.isEmpty else {
            subscriptions.dispose()
            throw Diagnostics(all: builder.errors.map(\.diagnostic).sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        inputs = builder.inputs
        self.subscriptions = subscriptions
        self.budget = budget
        self.probe = probe
        retained = builder.retained
        marbleSources = builder.marbleSources
    }

    /// The problems that building `program` finds, without running any of it: nothing is
    /// subscribed, so nothing runs (a server checks a program this way before making a session).
    public static func validate(_ program: Program, services: [String: Service] = [:]) -> [Diagnostic] {
        examine(program, services: services).diagnostics
    }

    /// What building `program` finds without running it (as ``validate(_:services:)``): its
    /// errors, and the names under which each named stream reports the sources inside it
    /// (`r·request`, a flattening's inner `x·just`), by stream, in order of first call.
    public static func examine(
        _ program: Program,
        services: [String: Service] = [:]
    ) -> (diagnostics: [Diagnostic], sources: [String: [String]]) {
        let clock = TestScheduler()
        var builder = Builder(
            program: program,
            scheduler: clock,
            background: clock,
            services: services,
            budget: StepBudget { _ in },
            subscriptions: CompoundDisposable(),
            probe: StreamProbe(limit: 0) { _, _ in },
            subscribes: false
        )
        builder.buildAll()
        let diagnostics = builder.errors.map(\.diagnostic).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        return (diagnostics, builder.reportedSources)
    }

    /// Sends `event` into the input `name`; an unknown name is ignored.
    public func send(_ event: Event<Value, PipelineFailure>, to name: String) {
        inputs[name]?.send(event)
    }

    /// Stops every stream: subscriptions are disposed and nothing more is sent.
    public func stop() {
        subscriptions.dispose()
    }

    /// Each stream's and stage's subscriptions so far and live now, by name (a name never
    /// subscribed to is absent).
    public var subscriptionCounts: [String: SubscriptionCount] { probe.counts() }

    /// Bytes of the values the program's stages sent lately (each counting half after 30 s).
    public var recentBytesSent: Double { budget.recentBytesSent }

    /// Whether the program was halted (its budget ran out, or ``haltForMemory()``).
    public var isHalted: Bool { budget.isExhausted }

    /// Halts the program because the server's memory is short: every stream not ended yet ends
    /// with `budget_exceeded`, saying why.
    public func haltForMemory() {
        budget.halt(.memory)
    }

    /// The problems that kept a program from being built.
    public struct Diagnostics: Error, Sendable {
        /// Each problem, sorted by position.
        public let all: [Diagnostic]
    }
}
