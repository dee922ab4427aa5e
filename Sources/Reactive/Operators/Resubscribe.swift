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
            // resubscription: the trampoline makes that a loop.
            let trampoline = Trampoline()
            @Sendable func attempt() {
                trampoline.run {
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
                }
            }
            subscriber.add(current)  // before the source runs: a synchronous one sees the stop
            attempt()
            return nil
        }
    }
}
