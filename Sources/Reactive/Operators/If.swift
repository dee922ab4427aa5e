extension Signal {
    /// Follows `then` while `condition`'s latest value is true and `else` while it is false,
    /// switching whenever it changes (RAC `+if:then:else:`).
    public static func `if`(
        _ condition: Signal<Bool, Failure>,
        then trueSignal: Signal,
        else falseSignal: Signal
    ) -> Signal {
        condition.map { $0 ? trueSignal : falseSignal }.switchToLatest()
    }
}
