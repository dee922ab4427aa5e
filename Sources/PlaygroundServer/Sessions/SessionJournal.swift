import Reactive
import Scenarios

/// What was done to a virtual-clock session, in the order its thread does it: each input and
/// each move of the clock. Replayed on a clock of its own (``SessionReplay``), it makes the same
/// events at the same virtual times, since a session's work on a virtual clock depends on nothing
/// else — the question a room asks is answered this way before anyone sees the answer.
///
/// Bounded in bytes: a session that passed ``limit`` keeps driving, but its journal is no longer
/// whole (``isWhole``) and cannot be replayed.
struct SessionJournal: Sendable {
    /// One thing done to the session.
    enum Step: Sendable {
        /// An input's event, as the session applied it.
        case input(name: String, event: InputEvent)
        /// The `advance` input: the clock moved by this many milliseconds.
        case advance(milliseconds: Double)
    }

    /// The steps, in order.
    private(set) var steps: [Step] = []
    /// Whether every step is here: nothing was dropped for ``limit``.
    private(set) var isWhole = true
    private var bytes = 0
    /// The most bytes the steps may take (a value's JSON, and 48 bytes a step).
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The milliseconds the steps move the clock by, together.
    private(set) var milliseconds = 0.0

    /// Adds `step`, unless the journal would pass its limit (it is then no longer whole). Moves of
    /// the clock with no input between are one step (Play sends one every 100 ms): the work they
    /// run is the same, in the same order, unless one move ran past the step budget, which only a
    /// runaway program does (a replay runs such a step in several budgets).
    mutating func append(_ step: Step) {
        guard isWhole else { return }
        let size: Int
        switch step {
        case .input(let name, let event): size = 48 + name.utf8.count + (EventJSON.valueJSON(of: event.recorded)?.utf8.count ?? 0)
        case .advance(let milliseconds):
            self.milliseconds += milliseconds
            if case .advance(let before) = steps.last {
                steps[steps.count - 1] = .advance(milliseconds: before + milliseconds)
                return
            }
            size = 48
        }
        guard bytes + size <= limit else {
            isWhole = false
            steps = []
            return
        }
        bytes += size
        steps.append(step)
    }
}

/// A session's journal replayed on a virtual clock of its own, as ``Session`` runs it: the
/// definition started and the work due run, then each step — an input applied and the work due
/// run, or the clock advanced (moves made one step run in as many step budgets as they need,
/// up to ``Session/replayedStepBudgets``) — then the clock moved on by `beyond` milliseconds. Its reports go to `sink` with the clock's time.
enum SessionReplay {
    static func run(
        _ definition: SessionDefinition,
        settings: ScenarioSettings,
        steps: [SessionJournal.Step],
        beyond: Double,
        sink: @escaping @Sendable (_ stream: String, _ report: StageReport, _ at: Duration) -> Void
    ) {
        let clock = TestScheduler()
        let schedulers = SessionClock(session: clock, background: NamedScheduler(clock, name: "background"))
        let instance = definition.start(schedulers, settings) { stream, report in sink(stream, report, clock.now) }
        let budget = Session.virtualStepBudget
        _ = clock.advance(to: clock.now, maximumSteps: budget)
        for step in steps {
            switch step {
            case .input(let name, let event):
                instance.apply(event, to: name)
                _ = clock.advance(to: clock.now, maximumSteps: budget)
            case .advance(let milliseconds):
                _ = Session.advance(clock, to: clock.now + Session.duration(milliseconds: milliseconds), whole: true)
            }
        }
        if beyond > 0 { _ = Session.advance(clock, to: clock.now + Session.duration(milliseconds: beyond), whole: true) }
        instance.stop()
    }
}
