extension Signal {
    /// Sends every value of every signal as it arrives; completes when all complete; fails when any
    /// fails (RAC `+merge:`).
    @inlinable
    public static func merge(_ signals: [Signal]) -> Signal {
        guard !signals.isEmpty else { return .empty }
        return Signal { subscriber in
            let serializer = Serializer(0, subscriber)
            return subscribeEach(signals, stoppingWith: subscriber) { _, event in
                serializer.update { completed, outbox in
                    if case .completed = event {
                        completed += 1
                        if completed == signals.count { outbox.append(.completed) }
                    } else {
                        outbox.append(event)
                    }
                }
            }
        }
    }

    /// Merges this signal with `other` (RAC `merge:`).
    @inlinable
    public func merge(with other: Signal) -> Signal {
        .merge([self, other])
    }
}
