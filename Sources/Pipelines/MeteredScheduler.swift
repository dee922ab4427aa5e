import Reactive

/// A program's view of a scheduler: each piece of work it hands over is measured on the thread
/// that runs it and charged to the program's ``StepBudget``.
///
/// Work a program schedules (a timer's tick, a `deliver(on:)` hop) runs as pieces of its own, between
/// other sessions' pieces, so the budget's readings taken every few steps never span one: a loop
/// that hops to `background` and back at each turn would use a core for ever uncharged. Reading
/// the thread's CPU time before and after each piece (two system calls a piece) charges exactly
/// what the program's work took, and nothing of the work around it.
final class MeteredScheduler: Scheduler {
    private let base: any Scheduler
    private let budget: StepBudget

    init(_ base: any Scheduler, budget: StepBudget) {
        self.base = base
        self.budget = budget
    }

    var now: Duration { base.now }

    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        base.schedule(metered(action))
    }

    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        base.schedule(after: delay, metered(action))
    }

    /// `action` between two readings of the thread's CPU time. It runs even once the program is
    /// halted: a halted program's scheduled work is its subscriptions' disposal (RAC's
    /// `subscribeOn:` disposes on its scheduler), and its streams are disposed already.
    private func metered(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let budget = self.budget
        return {
            budget.readCPU()
            action()
            budget.readCPU()
        }
    }
}
