import Locking

extension Signal {
    /// Sends this signal's events, but subscribes again instead of passing on a terminal event for
    /// which `resubscribesAfter` says so — at most `limit` times (`nil`: without limit). What
    /// `retry` (after errors) and `repeat` (after completion) are made of.
    func resubscribing(
        upTo limit: Int?,
        after resubscribesAfter: @escaping @Sendable (Event<Value, Failure>) -> Bool
    ) -> Signal {
        Signal { subscriber in
            let current = SerialDisposable()
            let attempts = Lock(0)
            // A signal that ends synchronously inside `subscribe` would recurse once per
            // resubscription; a trampoline turns those into a loop.
            let pending = Lock((isSubscribing: false, again: false))
            @Sendable func attempt() {
                let shouldRun = pending.withLock { state -> Bool in
                    if state.isSubscribing {
                        state.again = true
                        return false
                    }
                    state.isSubscribing = true
                    return true
                }
                guard shouldRun else { return }
                repeat {
                    pending.withLock { $0.again = false }
                    let upstream = Subscriber<Value, Failure> { event in
                        guard event.isTerminating, resubscribesAfter(event) else {
                            subscriber.send(event)
                            return
                        }
                        let again = attempts.withLock { attempts -> Bool in
                            guard limit.map({ attempts < $0 }) ?? true else { return false }
                            attempts += 1
                            return true
                        }
                        if again && !subscriber.isStopped { attempt() } else { subscriber.send(event) }
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
