import Dispatch
import Reactive
import Testing

@testable import PlaygroundServer

extension Session {
    /// Blocks until the session's thread has done everything queued on it before the call — its
    /// start, and each input and move of the clock sent so far — so a test reads their effects
    /// without polling.
    ///
    /// It blocks rather than awaits, on purpose. A test that suspends goes to the back of the
    /// test run's queue: on two cores under ThreadSanitizer it resumed more than ten minutes
    /// later, after the store had expired its idle session, and read an empty log. Blocking keeps
    /// the test's place; the session's thread is its own, so nothing it needs is held.
    func settle() {
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.schedule { done.signal() }
        // A deadline only so that a session thread that never runs fails the test instead of hanging the run.
        if done.wait(timeout: .now() + 300) == .timedOut {
            Issue.record("the session's thread did not reach the queued marker within 300 s")
        }
    }
}
