import Reactive

@testable import PlaygroundServer

extension Session {
    /// Waits until the session's thread has done everything queued on it before the call — its
    /// start, and each input and move of the clock sent so far — so a test reads their effects
    /// without polling. A wall-clock deadline here failed under ThreadSanitizer on two cores, where
    /// the polling loops themselves took the cores the sessions' threads needed.
    func settled() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = scheduler.schedule { continuation.resume() }
        }
    }
}
