extension Signal {
    /// Follows the signal that `cases` gives for `keys`' latest key, or `defaultSignal` for a key it
    /// does not have, switching at every key (RAC `+switch:cases:default:`).
    public static func `switch`<Key: Hashable & Sendable>(
        _ keys: Signal<Key, Failure>,
        cases: [Key: Signal],
        default defaultSignal: Signal
    ) -> Signal {
        keys.map { cases[$0] ?? defaultSignal }.switchToLatest()
    }

    /// Follows the signal that `cases` gives for `keys`' latest key; a key it does not have fails
    /// the result with `noMatch(key)` (RAC `+switch:cases:default:` with no default, which fails
    /// with `RACSignalErrorNoMatchingCase`).
    public static func `switch`<Key: Hashable & Sendable>(
        _ keys: Signal<Key, Failure>,
        cases: [Key: Signal],
        noMatch: @escaping @Sendable (Key) -> Failure
    ) -> Signal {
        keys.map { cases[$0] ?? .failure(noMatch($0)) }.switchToLatest()
    }
}
