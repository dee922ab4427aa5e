/// How far one row of marbles is from another: the least cost of turning the events of one into
/// the other's (an edit distance over events in time order, docs/API.md "Find by behaviour").
///
/// - An event missing or extra costs 1.
/// - Two events of the same kind may be paired: at no cost when they are equal; a different
///   value costs 0.5, a different frame 0.5 × min(1, frames apart ÷ 4). A pairing so costs at most
///   1, less than removing one event and adding the other.
/// - Events of different kinds are never paired.
///
/// So the distance is 0 exactly when the rows are equal, and a row one value off (`take(3)` for
/// `take(2)`) is 1 away; a row whose values all come one frame late is 0.125 away per event.
enum MarbleDistance {
    static func between(_ row: [FindQuery.Event], _ wanted: [FindQuery.Event]) -> Double {
        // The usual two-row dynamic programme: `previous[j]` is the distance between the first i-1
        // events of `row` and the first j of `wanted`.
        var previous = (0...wanted.count).map(Double.init)
        var current = [Double](repeating: 0, count: wanted.count + 1)
        for (i, event) in row.enumerated() {
            current[0] = Double(i + 1)
            for (j, other) in wanted.enumerated() {
                var best = min(previous[j + 1], current[j]) + 1
                if let pairing = cost(pairing: event, with: other) { best = min(best, previous[j] + pairing) }
                current[j + 1] = best
            }
            swap(&previous, &current)
        }
        return previous[wanted.count]
    }

    /// The cost of pairing two events, or `nil` when they are of different kinds.
    static func cost(pairing event: FindQuery.Event, with other: FindQuery.Event) -> Double? {
        guard event.kind == other.kind else { return nil }
        let value = event.valueJSON == other.valueJSON ? 0 : 0.5
        // Frames count from a clock stopped at 60 s: small numbers, no overflow.
        let apart = Double(abs(event.frame - other.frame))
        return value + 0.5 * min(1, apart / 4)
    }
}
