import Locking
import Logging
import Reactive
import Scenarios

/// A session's inputs, in arrival order on its thread, each within the session's input rate; and
/// its virtual clock, moved only by the `advance` input and bounded in steps per request and in
/// time in all.
extension Session {
    /// Why an input was not queued.
    enum InputRefusal: Error {
        /// The session's input rate is exceeded (429).
        case rateExceeded
        /// The input was completed or failed before: its signal takes nothing more (409).
        case inputEnded
        /// The virtual clock would pass ``Session/maximumVirtualTime`` (409).
        case clockExhausted
        /// The clock would pass its ceiling (``Session/limitClock(by:)``): a room's copy waits at
        /// the start of the room's open question, at these milliseconds (409).
        case heldAtQuestion(Double)
        /// The clock stopped at a breakpoint and waits for `…/breakpoints/continue` (409).
        case atBreakpoint(BreakpointHit)
    }

    /// Queues `event` for input `name`, unless the input has ended or the session's input rate
    /// is exceeded.
    func send(_ event: InputEvent, to name: String, rated: Bool = true) -> Result<Void, InputRefusal> {
        enqueue(input: name, ending: !event.isValue, rated: rated, step: .input(name: name, event: event)) { [self] instance in
            // The input is an event too (`input:NAME`), and the root cause of all it propagates.
            guard let seq = record(Self.inputStream(name), event.recorded, isInput: true) else { return }
            Causes.with([seq]) { instance.apply(event, to: name) }
            runDueVirtualWork()  // work due now runs after each input, with the causes it was scheduled with
            announceBreakpoint()
        }
    }

    /// Queues a move of the virtual clock by `milliseconds` (the `advance` input), unless the
    /// session's virtual time would pass ``maximumVirtualTime`` or its ``clockCeiling``.
    func advance(by milliseconds: Double, rated: Bool = true) -> Result<Void, InputRefusal> {
        if let ceiling = clockCeiling, state.withLock({ $0.virtualTimeRequested }) + milliseconds > ceiling {
            return .failure(.heldAtQuestion(ceiling))
        }
        if let hit = inside.breakpoints.hit { return .failure(.atBreakpoint(hit)) }
        return enqueue(
            input: Self.advanceInput,
            ending: false,
            rated: rated,
            virtualMilliseconds: milliseconds,
            step: .advance(milliseconds: milliseconds)
        ) {
            [self] _ in
            guard let virtualClock else { return }
            var target = virtualClock.now + Self.duration(milliseconds: milliseconds)
            // Two advances checked at once may pass the ceiling together: the clock stops at it.
            if let ceiling = clockCeiling { target = max(virtualClock.now, min(target, origin + Self.duration(milliseconds: ceiling))) }
            // A move queued behind one that stopped at a breakpoint waits with it: it is dropped.
            guard !inside.isAtBreakpoint else { return }
            // A replayed step may be many moves made one: it runs in several budgets (``advance(_:to:whole:)``).
            let arrived =
                inside.hasBreakpoints
                ? Self.advance(virtualClock, to: target, stoppingFor: inside) : Self.advance(virtualClock, to: target, whole: !rated)
            if !arrived { budgetExhausted() }
            announceBreakpoint()
        }
    }

    /// The most budgets a replayed step of the journal may take: moves of the clock made one step
    /// (``SessionJournal``) were each within a budget, together perhaps not; a runaway program's
    /// endless work at one instant still stops.
    static let replayedStepBudgets = 64

    /// Moves `clock` to `target` within the step budget, or — for a `whole` step, one of a journal
    /// replayed — within up to ``replayedStepBudgets`` of them. Whether it got there.
    static func advance(_ clock: TestScheduler, to target: Duration, whole: Bool) -> Bool {
        for _ in 0..<(whole ? replayedStepBudgets : 1) {
            if clock.advance(to: target, maximumSteps: virtualStepBudget) { return true }
        }
        return false
    }

    /// Moves `clock` to `target` one piece of work at a time, within the step budget, stopping
    /// after the work that meets a breakpoint of `log`: the clock then stands at that work's time.
    /// Whether it stayed within the budget.
    static func advance(_ clock: TestScheduler, to target: Duration, stoppingFor log: InsideLog) -> Bool {
        for _ in 0..<virtualStepBudget {
            guard clock.step(dueBy: target) else {
                clock.advance(to: target)  // nothing more is due on the way: the time alone moves
                return true
            }
            if log.isAtBreakpoint { return true }
        }
        return clock.nextDueTime.map { $0 > target } ?? true
    }

    /// Does a journal's `steps` as if they had been sent, outside the input rate (a room's
    /// session taken home: its copy starts where the room's is).
    func replay(_ steps: [SessionJournal.Step]) {
        for step in steps {
            switch step {
            case .input(let name, let event): _ = send(event, to: name, rated: false)
            case .advance(let milliseconds): _ = advance(by: milliseconds, rated: false)
            }
        }
    }

    /// `milliseconds` (at most ``maximumAdvance``, checked by the API) as a duration, to the microsecond.
    static func duration(milliseconds: Double) -> Duration {
        .microseconds(Int64((milliseconds * 1_000).rounded()))
    }

    /// Runs the virtual clock's work that is due now, within the step budget.
    func runDueVirtualWork() {
        guard let virtualClock else { return }
        if !virtualClock.advance(to: virtualClock.now, maximumSteps: Self.virtualStepBudget) {
            budgetExhausted()
        }
    }

    private func budgetExhausted() {
        Self.logger.warning(
            "virtual clock stopped: one request's work passed the step budget",
            metadata: ["session": "\(id.prefix(8))…", "budget": "\(Self.virtualStepBudget)"]
        )
    }

    private static let logger = Logger(label: "playground.sessions")

    private func enqueue(
        input name: String,
        ending: Bool,
        rated: Bool = true,
        virtualMilliseconds: Double = 0,
        step: SessionJournal.Step,
        _ work: @escaping @Sendable (any SessionInstance) -> Void
    ) -> Result<Void, InputRefusal> {
        let verdict = state.withLock { state -> Result<Void, InputRefusal> in
            // Decided here, in arrival order, so the answer matches what the queue will do; before
            // the rate, because an ended input stays ended (409) while a rate limit passes (429).
            guard !state.endedInputs.contains(name) else { return .failure(.inputEnded) }
            let now = ContinuousClock.now
            state.inputs.refill(at: now)
            guard !rated || state.inputs.tokens >= 1, !state.isClosed else { return .failure(.rateExceeded) }
            guard state.virtualTimeRequested + virtualMilliseconds <= Self.maximumVirtualTime else {
                return .failure(.clockExhausted)
            }
            state.virtualTimeRequested += virtualMilliseconds
            if ending { state.endedInputs.insert(name) }
            if rated { _ = state.inputs.take(at: now) }
            state.lastActivity = now
            state.journal?.append(step)  // here, in the order the session's thread will do it
            return .success(())
        }
        guard case .success = verdict else { return verdict }
        scheduler.schedule { [self] in
            guard let instance = state.withLock({ $0.instance }) else { return }
            inspected { work(instance) }
        }
        return verdict
    }
}
