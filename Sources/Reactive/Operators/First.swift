import Dispatch
import Locking

/// Why ``Signal/first(timeout:)`` returned no value.
public enum FirstError<Failure: Error>: Error {
    /// The signal completed without sending a value.
    case empty
    /// No value arrived within the timeout.
    case timedOut
    /// The signal failed first.
    case failed(Failure)
}

extension FirstError: Equatable where Failure: Equatable {}

extension Signal {
    /// Subscribes, **blocks the calling thread** until the first value, an error, completion or
    /// the timeout, and returns the value (RAC `first`, which blocks without a limit).
    ///
    /// Never call it on a thread that the signal needs in order to send (a run loop's or a queue's
    /// own thread), nor on the server's threads: it is for tests, scripts and command-line tools.
    public func first(timeout: Duration) throws(FirstError<Failure>) -> Value {
        let outcome = Lock<Result<Value, FirstError<Failure>>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let subscription = take(1).subscribe(
            Subscriber { event in
                let isNew = outcome.withLock { outcome -> Bool in
                    guard outcome == nil else { return false }
                    switch event {
                    case .next(let value): outcome = .success(value)
                    case .error(let error): outcome = .failure(.failed(error))
                    case .completed: outcome = .failure(.empty)
                    }
                    return true
                }
                if isNew { done.signal() }
            }
        )
        let finished = done.wait(timeout: .now() + timeout.timeInterval) == .success
        subscription.dispose()
        guard finished, let result = outcome.withLock({ $0 }) else { throw .timedOut }
        return try result.get()
    }
}
