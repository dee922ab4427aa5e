import Reactive

/// `stream.NAME(arguments)` as the interpreter is given it.
struct OperatorCall {
    /// The operator's name, for the builders that serve several.
    let name: String
    /// What the operator applies to.
    let upstream: SignalMaker
    let arguments: Arguments
    /// The closure parameters in scope (names that are values, not signals).
    let parameters: [[String]]
}

/// One operator of the language: the one place it is spelled. The vocabulary (and so the
/// checker's suggestions) and the interpreter read ``all``; the tests hold docs/PIPELINES.md,
/// docs/OPERATORS.md and the gallery to it (docs/ARCHITECTURE.md, "Adding an operator").
struct LanguageOperator: Sendable {
    /// Its name in a program.
    let name: String
    /// RAC 2.x's name for it, as docs/OPERATORS.md's RAC column writes it.
    let rac: String
    /// Its arguments' labels, checked before it is built; `nil` where it has several forms and
    /// checks them itself.
    let shape: [String?]?
    /// How a call is written, for messages.
    let usage: String
    /// Builds the operator's signals.
    let build: @Sendable (inout Builder, OperatorCall) throws(BuildError) -> SignalMaker

    init(
        _ name: String,
        rac: String,
        _ shape: [String?]?,
        _ usage: String,
        _ build: @escaping @Sendable (inout Builder, OperatorCall) throws(BuildError) -> SignalMaker
    ) {
        self.name = name
        self.rac = rac
        self.shape = shape
        self.usage = usage
        self.build = build
    }

    /// Every operator, by family, in docs/PIPELINES.md's order.
    static let all: [LanguageOperator] = [
        // Transforming and filtering
        .init("map", rac: "map:", [nil], "map { $0 * 2 }") { b, c throws(BuildError) in try b.map(c) },
        .init("attemptMap", rac: "tryMap:", [nil], "attemptMap { $0 * 2 }") { b, c throws(BuildError) in try b.map(c) },
        .init("reduceEach", rac: "reduceEach:", [nil], "reduceEach { a, b in a + b }") { b, c throws(BuildError) in try b.map(c) },
        .init("filter", rac: "filter:", [nil], "filter { $0 > 2 }") { b, c throws(BuildError) in try b.filter(c) },
        .init("take", rac: "take:", nil, "take(3)") { b, c throws(BuildError) in try b.takeOrSkip(c) },
        .init("skip", rac: "skip:", nil, "skip(3)") { b, c throws(BuildError) in try b.takeOrSkip(c) },
        .init("takeLast", rac: "takeLast:", [nil], "takeLast(3)") { b, c throws(BuildError) in try b.takeOrSkip(c) },
        .init("startWith", rac: "startWith:", [nil], "startWith(0)") { b, c throws(BuildError) in b.constant(c) },
        .init("ignore", rac: "ignore:", [nil], "ignore(0)") { b, c throws(BuildError) in b.constant(c) },
        .init("mapReplace", rac: "mapReplace:", [nil], "mapReplace(0)") { b, c throws(BuildError) in b.constant(c) },
        .init("distinctUntilChanged", rac: "distinctUntilChanged", [], "distinctUntilChanged()") { b, c throws(BuildError) in b.unary(c) },
        .init("ignoreValues", rac: "ignoreValues", [], "ignoreValues()") { b, c throws(BuildError) in b.unary(c) },
        .init("not", rac: "not", [], "not()") { b, c throws(BuildError) in b.unary(c) },
        .init("and", rac: "and", [], "combineLatest(a, b).and()") { b, c throws(BuildError) in b.andOr(c) },
        .init("or", rac: "or", [], "combineLatest(a, b).or()") { b, c throws(BuildError) in b.andOr(c) },
        .init("scan", rac: "scanWithStart:reduce:", [nil, nil], "scan(0) { total, value in total + value }") { b, c throws(BuildError) in
            try b.fold(c)
        },
        .init("combinePrevious", rac: "combinePreviousWithStart:reduce:", [nil, nil], "combinePrevious(0) { previous, value in value - previous }") {
            b,
            c throws(BuildError) in try b.fold(c)
        },
        .init("aggregate", rac: "aggregateWithStart:reduce:", [nil, nil], "aggregate(0) { total, value in total + value }") {
            b,
            c throws(BuildError) in try b.fold(c)
        },
        .init("any", rac: "any:", [nil], "any { $0 > 2 }") { b, c throws(BuildError) in try b.anyAll(c) },
        .init("all", rac: "all:", [nil], "all { $0 > 2 }") { b, c throws(BuildError) in try b.anyAll(c) },
        .init("collect", rac: "collect", [], "collect()") { b, c throws(BuildError) in b.collect(c) },
        // Combining and flattening
        .init("merge", rac: "merge:", ["with"], "merge(with: other)") { b, c throws(BuildError) in try b.combine(c) },
        .init("combineLatest", rac: "combineLatestWith:", ["with"], "combineLatest(with: other)") { b, c throws(BuildError) in try b.combine(c) },
        .init("zip", rac: "zipWith:", ["with"], "zip(with: other)") { b, c throws(BuildError) in try b.combine(c) },
        .init("sample", rac: "sample:", [nil], "sample(trigger)") { b, c throws(BuildError) in try b.combine(c) },
        .init("withLatest", rac: "combineLatest:", nil, "withLatest(from: a, b)") { b, c throws(BuildError) in try b.withLatest(c) },
        .init("concat", rac: "concat:", ["with"], "concat(with: other)") { b, c throws(BuildError) in try b.concat(c) },
        .init("then", rac: "then:", [nil], "then { just(1) }") { b, c throws(BuildError) in try b.then(c) },
        .init("flatMap", rac: "flattenMap:", [nil, nil], "flatMap(.latest) { search($0) }") { b, c throws(BuildError) in try b.flatMap(c) },
        .init("flattenMap", rac: "flattenMap:", [nil], "flattenMap { search($0) }") { b, c throws(BuildError) in try b.flatMap(c) },
        .init("concatMap", rac: "concat", [nil], "concatMap { search($0) }") { b, c throws(BuildError) in try b.flatMap(c) },
        // Errors and repetition
        .init("catch", rac: "catch:", [nil], "catch { error in just(error.message) }") { b, c throws(BuildError) in try b.catchError(c) },
        .init("catchTo", rac: "catchTo:", [nil], "catchTo(just(0))") { b, c throws(BuildError) in try b.catchTo(c) },
        .init("retry", rac: "retry", nil, "retry(3)") { b, c throws(BuildError) in try b.retry(c) },
        .init("repeat", rac: "repeat", [], "repeat()") { b, c throws(BuildError) in b.repeatForever(c) },
        .init("attempt", rac: "try:", [nil], "attempt { $0 > 0 }") { b, c throws(BuildError) in try b.attempt(c) },
        .init("materialize", rac: "materialize", [], "materialize()") { b, c throws(BuildError) in b.materialize(c) },
        .init("dematerialize", rac: "dematerialize", [], "dematerialize()") { b, c throws(BuildError) in b.dematerialize(c) },
        // Time
        .init("throttle", rac: "throttle:", [nil], "throttle(0.5s)") { b, c throws(BuildError) in try b.timed(c) },
        .init("rateLimit", rac: "—", [nil], "rateLimit(0.5s)") { b, c throws(BuildError) in try b.timed(c) },
        .init("delay", rac: "delay:", [nil], "delay(0.5s)") { b, c throws(BuildError) in try b.timed(c) },
        .init("timeout", rac: "timeout:onScheduler:", ["after"], "timeout(after: 2s)") { b, c throws(BuildError) in try b.timeout(c) },
        .init("buffer", rac: "bufferWithTime:onScheduler:", ["every"], "buffer(every: 1s)") { b, c throws(BuildError) in try b.buffer(c) },
        // Schedulers
        .init("deliverOn", rac: "deliverOn:", [nil], "deliverOn(background)") { b, c throws(BuildError) in try b.hop(c) },
        .init("subscribeOn", rac: "subscribeOn:", [nil], "subscribeOn(background)") { b, c throws(BuildError) in try b.hop(c) },
        // Multicasting
        .init("replay", rac: "replay", [], "replay()") { b, c throws(BuildError) in b.replay(c) },
        .init("replayLast", rac: "replayLast", [], "replayLast()") { b, c throws(BuildError) in b.replay(c) },
        .init("replayLazily", rac: "replayLazily", [], "replayLazily()") { b, c throws(BuildError) in b.replay(c) },
        .init("publish", rac: "publish", [], "publish().autoconnect()") { b, c throws(BuildError) in b.replay(c) },
        .init("autoconnect", rac: "autoconnect", [], "publish().autoconnect()") { _, c throws(BuildError) in c.upstream },
    ]

    /// ``all`` by name.
    static let byName: [String: LanguageOperator] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
