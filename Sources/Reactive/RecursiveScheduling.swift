import Locking

extension Scheduler {
    /// Runs `action` as soon as possible, passing it a `reschedule` closure that schedules it once
    /// more (RAC `scheduleRecursiveBlock:`). The disposable cancels the run that is pending and
    /// every later one.
    ///
    /// As in RAC, calls to `reschedule` made while `action` runs are counted and scheduled after it
    /// returns, one run each, rather than nesting runs inside it: even on a scheduler that runs work
    /// at once, recursion stays flat (``ImmediateScheduler`` runs them in a loop). A call made
    /// after `action` returned (from a callback, say) schedules at once.
    @discardableResult
    public func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
    ) -> any Disposable {
        let all = CompoundDisposable()
        scheduleRecursive(action, addingTo: all)
        return all
    }

    private func scheduleRecursive(
        _ action: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void,
        addingTo all: CompoundDisposable
    ) {
        let pending = SerialDisposable()
        all.add(pending)
        pending.inner = schedule { [self] in
            all.remove(pending)  // this run has started: nothing left to cancel
            guard !all.isDisposed else { return }
            // While `action` runs, reschedules are counted; after it returns, they schedule at once.
            let state = Lock((isRunning: true, count: 0))
            action {
                let now = state.withLock { state -> Bool in
                    if state.isRunning { state.count += 1 }
                    return !state.isRunning
                }
                if now && !all.isDisposed { self.scheduleRecursive(action, addingTo: all) }
            }
            let count = state.withLock { state -> Int in
                state.isRunning = false
                return state.count
            }
            for _ in 0..<count where !all.isDisposed { self.scheduleRecursive(action, addingTo: all) }
        }
    }
}
