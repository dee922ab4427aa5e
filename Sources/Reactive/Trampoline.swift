import Locking

/// Runs a body that may ask, from inside, to be run again — a signal that ends synchronously while
/// it is being subscribed asks for the next subscription — as a loop rather than a recursion one
/// stack frame deeper each time: 100,000 synchronous signals in a row must not overflow the
/// stack (RAC runs such resubscriptions on a trampolining scheduler for the same reason). A
/// request from another thread while the body runs is served by the running thread, in its loop,
/// once the body returns.
@usableFromInline
struct Trampoline: Sendable {
    @usableFromInline let state = Lock((isRunning: false, again: false))

    @inlinable init() {}

    /// Runs `body`, now or — when a run is under way — once that run's body returns.
    @inlinable
    func run(_ body: () -> Void) {
        let shouldRun = state.withLock { state -> Bool in
            if state.isRunning {
                state.again = true
                return false
            }
            state.isRunning = true
            return true
        }
        guard shouldRun else { return }
        repeat {
            state.withLock { $0.again = false }
            body()
        } while state.withLock({ state -> Bool in
            if !state.again { state.isRunning = false }
            return state.again
        })
    }
}
