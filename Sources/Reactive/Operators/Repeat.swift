extension Signal {
    /// Subscribes again each time this signal completes, for ever, until disposed (or stopped by
    /// an operator such as `take`); an error ends it (RAC `repeat`). A signal that completes
    /// synchronously is resubscribed in a loop, not by recursion.
    public func `repeat`() -> Signal {
        resubscribing(upTo: nil) { event in
            if case .completed = event { return true }
            return false
        }
    }
}
