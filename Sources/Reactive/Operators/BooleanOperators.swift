extension Signal where Value == Bool {
    /// Negates every value (RAC `not`).
    public func not() -> Signal {
        map { !$0 }
    }
}

extension Signal where Value == [Bool] {
    /// True when every value of each array is true (RAC `and`, on a signal of tuples of booleans
    /// such as `combineLatest` makes).
    public func and() -> Signal<Bool, Failure> {
        map { $0.allSatisfy { $0 } }
    }

    /// True when any value of each array is true (RAC `or`).
    public func or() -> Signal<Bool, Failure> {
        map { $0.contains(true) }
    }
}
