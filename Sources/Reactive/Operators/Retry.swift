import Locking

extension Signal {
    /// Resubscribes after an error, at most `count` times; the error after the last retry is sent
    /// on (RAC `retry:`).
    public func retry(_ count: Int) -> Signal {
        precondition(count >= 0, "retry(_:) needs a count of at least 0")
        return retrying(upTo: count)
    }

    /// Resubscribes after every error, forever (RAC `retry`).
    public func retry() -> Signal {
        retrying(upTo: nil)
    }

    private func retrying(upTo limit: Int?) -> Signal {
        Signal { subscriber in
            let current = SerialDisposable()
            let attempts = Lock(0)
            // A retry that fails synchronously inside `subscribe` would recurse; a trampoline turns
            // those retries into a loop.
            let pending = Lock((isSubscribing: false, again: false))
            @Sendable func attempt() {
                let shouldRun = pending.withLock { state -> Bool in
                    if state.isSubscribing { state.again = true; return false }
                    state.isSubscribing = true
                    return true
                }
                guard shouldRun else { return }
                repeat {
                    pending.withLock { $0.again = false }
                    let upstream = Subscriber<Value, Failure> { event in
                        if case .error(let error) = event {
                            let retry = attempts.withLock { attempts -> Bool in
                                guard limit.map({ attempts < $0 }) ?? true else { return false }
                                attempts += 1
                                return true
                            }
                            if retry && !subscriber.isStopped { attempt() } else { subscriber.sendError(error) }
                        } else {
                            subscriber.send(event)
                        }
                    }
                    current.inner = upstream
                    subscribe(upstream)
                } while pending.withLock({ state -> Bool in
                    if !state.again { state.isSubscribing = false }
                    return state.again
                })
            }
            subscriber.add(current)  // before the source runs: a synchronous one sees the stop
            attempt()
            return nil
        }
    }
}
