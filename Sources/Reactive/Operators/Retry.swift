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
        resubscribing(upTo: limit) { event in
            if case .error = event { return true }
            return false
        }
    }
}
