import Locking

extension Signal {
    /// Sends the last `count` values when this signal completes, then completes (RAC `takeLast:`).
    /// Nothing is sent before completion; an error drops them. `takeLast(0)` sends only completion.
    ///
    /// - Precondition: `count` is not negative.
    public func takeLast(_ count: Int) -> Signal {
        precondition(count >= 0, "takeLast(_:) needs a count of at least 0, not \(count)")
        return Signal { subscriber in
            let kept = Lock<[Value]>([])
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        guard count > 0 else { return }
                        kept.withLock { kept in
                            kept.append(value)
                            // Trimmed in batches, so that each value costs O(1) on average.
                            if kept.count >= 2 * count { kept.removeFirst(kept.count - count) }
                        }
                    case .error(let error):
                        subscriber.sendError(error)
                    case .completed:
                        for value in kept.withLock({ $0.suffix(count) }) {
                            if subscriber.isStopped { return }
                            subscriber.sendNext(value)
                        }
                        subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }
}
