import Pipelines

/// The programs a find tries: each drawable operator of the catalogue on the inputs, with
/// arguments taken from the query itself (docs/API.md, "Find by behaviour") — counts up to the
/// number of values, durations from the gaps between events and from each output event back to
/// the inputs, thresholds and values from the values drawn, and closures from a small fixed set.
/// In a fixed order, the plainest first, so that among equal answers the simplest comes first.
///
/// Not tried (docs/API.md lists them too, and `OperatorTableTests` holds both lists to the
/// operator table): the flattenings `flatMap`, `flattenMap`, `concatMap`, and `catch` and `then`
/// with a closure of their own (their inner signals cannot be derived from the rows); the
/// multicasting `replay`, `replayLast`, `replayLazily`, `publish`, `autoconnect` (one stream's
/// output is the same with or without them); the scheduler hops `deliver` and `subscribe` (threads, not marbles);
/// `materialize`, `dematerialize`, `attemptMap`, `reduceEach`, `attempt`, and `and`/`or` (arrays of
/// bools, which rows do not make); `if` (three streams, where a find has two inputs at most).
struct FindCandidate: Equatable {
    /// The operator's name in the catalogue (`filter`), for grouping and links.
    let operatorName: String
    /// The stream's expression (`a.filter { $0 > 2 }`).
    let expression: String
}

enum FindCandidates {
    /// At most this many values, thresholds and durations each feed the candidates.
    static let maximumDerived = 8
    static let maximumCount = 20

    static func all(for query: FindQuery) -> [FindCandidate] {
        var candidates: [FindCandidate] = []
        let durations = self.durations(for: query)
        for input in query.inputs {
            unary(input, query: query, durations: durations, into: &candidates)
        }
        if query.inputs.count == 2 {
            binary(query.inputs[0], query.inputs[1], into: &candidates)
        }
        var seen = Set<String>()
        return candidates.filter { seen.insert($0.expression).inserted }
    }

    private static func unary(_ input: FindQuery.Input, query: FindQuery, durations: [Int], into candidates: inout [FindCandidate]) {
        let x = input.name
        func add(_ name: String, _ call: String) { candidates.append(FindCandidate(operatorName: name, expression: "\(x).\(call)")) }
        let distinct = input.values.reduce(into: [Value]()) { if !$0.contains($1) { $0.append($1) } }
        let numbers = distinct.compactMap { value -> Double? in if case .number(let n) = value { n } else { nil } }.sorted()
        let allNumbers = !distinct.isEmpty && numbers.count == distinct.count
        let allBools = !distinct.isEmpty && distinct.allSatisfy { if case .bool = $0 { true } else { false } }

        add("distinctUntilChanged", "distinctUntilChanged()")
        add("ignoreValues", "ignoreValues()")
        let counts = 1...max(1, min(input.values.count, maximumCount))
        for n in counts { add("take", "take(\(n))") }
        for n in counts { add("skip", "skip(\(n))") }
        for n in counts { add("takeLast", "takeLast(\(n))") }
        if allBools { add("not", "not()") }
        if allNumbers {
            add("filter", "filter { $0 % 2 == 0 }")
            add("filter", "filter { $0 % 2 != 0 }")
            for k in spread(numbers).map(Value.number) {
                let k = k.literal!
                add("filter", "filter { $0 > \(k) }")
                add("filter", "filter { $0 < \(k) }")
                add("take", "take(while: { $0 < \(k) })")
                add("skip", "skip(while: { $0 < \(k) })")
                add("any", "any { $0 > \(k) }")
                add("all", "all { $0 < \(k) }")
            }
            add("map", "map { $0 * 2 }")
            add("map", "map { $0 * 10 }")
            add("map", "map { $0 + 1 }")
            add("map", "map { $0 - 1 }")
            add("scan", "scan(0) { total, value in total + value }")
            add("aggregate", "aggregate(0) { total, value in total + value }")
            add("combinePrevious", "combinePrevious(0) { previous, value in value - previous }")
        } else {
            for value in distinct.prefix(maximumDerived).compactMap(\.literal) {
                add("filter", "filter { $0 == \(value) }")
                add("ignore", "ignore(\(value))")
                add("skip", "skip(until: { $0 == \(value) })")
                add("take", "take(while: { $0 != \(value) })")
            }
        }
        for value in query.outputValues.prefix(maximumDerived).compactMap(\.literal) {
            add("startWith", "startWith(\(value))")
            add("mapReplace", "mapReplace(\(value))")
        }
        add("collect", "collect()")
        for duration in durations.map({ "\($0)ms" }) {
            add("throttle", "throttle(\(duration))")
            add("rateLimit", "rateLimit(\(duration))")
            add("delay", "delay(\(duration))")
            add("buffer", "buffer(every: \(duration))")
            add("timeout", "timeout(after: \(duration))")
        }
        if input.fails {
            for n in 1...3 { add("retry", "retry(\(n))") }
        }
        let wantedValues = query.output.filter { $0.kind == .next }.count
        if input.ends, !input.values.isEmpty, (1...maximumCount).contains(wantedValues) {
            add("repeat", "repeat().take(\(wantedValues))")
        }
    }

    private static func binary(_ a: FindQuery.Input, _ b: FindQuery.Input, into candidates: inout [FindCandidate]) {
        let (x, y) = (a.name, b.name)
        for (name, call) in [("merge", "merge(with:"), ("combineLatest", "combineLatest(with:"), ("zip", "zip(with:")] {
            candidates.append(FindCandidate(operatorName: name, expression: "\(x).\(call) \(y))"))
        }
        for (first, second) in [(x, y), (y, x)] {
            for (name, call) in [
                ("sample", "sample(\(second))"),
                ("withLatest", "withLatest(from: \(second))"),
                ("concat", "concat(with: \(second))"),
                ("take", "take(until: \(second))"),
                ("take", "take(untilReplacement: \(second))"),
                ("catchTo", "catchTo(\(second))"),
                ("then", "then { \(second) }"),
            ] {
                candidates.append(FindCandidate(operatorName: name, expression: "\(first).\(call)"))
            }
        }
    }

    /// At most ``maximumDerived`` of `sorted`, spread over it (the smallest and the largest kept).
    private static func spread(_ sorted: [Double]) -> [Double] {
        guard sorted.count > maximumDerived else { return sorted }
        return (0..<maximumDerived).map { sorted[$0 * (sorted.count - 1) / (maximumDerived - 1)] }
    }

    /// Durations in milliseconds to try, from the query's own times, most telling first: each
    /// output event back to the input event just before it, and to the subscription; then the
    /// gaps between an input's events; then every other distance from an input event to a later
    /// output event. At most ``maximumDerived``, each at least a frame.
    static func durations(for query: FindQuery) -> [Int] {
        let inputFrames = query.inputs.flatMap(\.frames).sorted()
        var frames: [Int] = []
        func add(_ frame: Int) { if frame > 0, !frames.contains(frame) { frames.append(frame) } }
        for event in query.output {
            if let before = inputFrames.last(where: { $0 < event.frame }) { add(event.frame - before) }
            add(event.frame)
        }
        for input in query.inputs {
            for (earlier, later) in zip(input.frames, input.frames.dropFirst()) { add(later - earlier) }
        }
        for event in query.output {
            for frame in inputFrames where frame < event.frame { add(event.frame - frame) }
        }
        // Frames of at most 200 characters times at most 10,000 ms each: no overflow.
        return frames.prefix(maximumDerived).map { $0 * query.frame }
    }
}
