import Reactive

/// One of the language's streams as its operators see it.
typealias Stream = Signal<Value, PipelineFailure>

/// `stream.NAME(arguments)` as the interpreter is given it.
struct OperatorCall {
    /// The operator's name, for messages only: a builder serving several operators is given what
    /// differs as a parameter by each table entry, never reads it from the name.
    let name: String
    /// What the operator applies to.
    let upstream: SignalMaker
    let arguments: Arguments
    /// The closure parameters in scope (names that are values, not signals).
    let parameters: [[String]]
}

/// One operator of the language: the one place it is spelled. The vocabulary (and so the
/// checker's suggestions) and the interpreter read ``all``; the tests hold docs/PIPELINES.md,
/// docs/OPERATORS.md and the gallery to it (CONTRIBUTING.md, "Adding an operator").
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
    /// The labels of its arguments that are tests, closures that must give a bool (`nil`: the
    /// unlabelled one): `filter { … }`, `take(while: { … })`. The checker reads them
    /// (``PredicateCheck``); the builder fails a run whose test gives anything else.
    let predicates: Set<String?>
    /// Builds the operator's signals.
    let build: @Sendable (inout Builder, OperatorCall) throws(BuildError) -> SignalMaker

    init(
        _ name: String,
        rac: String,
        _ shape: [String?]?,
        _ usage: String,
        predicates: Set<String?> = [],
        _ build: @escaping @Sendable (inout Builder, OperatorCall) throws(BuildError) -> SignalMaker
    ) {
        self.name = name
        self.rac = rac
        self.shape = shape
        self.usage = usage
        self.predicates = predicates
        self.build = build
    }

    /// Every operator, by family, in docs/PIPELINES.md's order.
    static let all: [LanguageOperator] = [
        // Transforming and filtering
        .init("map", rac: "map:", [nil], "map { $0 * 2 }") { b, c throws(BuildError) in try b.map(c) },
        .init("attemptMap", rac: "tryMap:", [nil], "attemptMap { $0 * 2 }") { b, c throws(BuildError) in try b.map(c) },
        .init("reduceEach", rac: "reduceEach:", [nil], "reduceEach { a, b in a + b }") { b, c throws(BuildError) in try b.map(c) },
        .init("filter", rac: "filter:", [nil], "filter { $0 > 2 }", predicates: [nil]) { b, c throws(BuildError) in try b.filter(c) },
        .init("take", rac: "take:", nil, "take(3)", predicates: ["while", "until"]) { b, c throws(BuildError) in
            try b.counted(c, window: .take) { $0.take($1) }
        },
        .init("skip", rac: "skip:", nil, "skip(3)", predicates: ["while", "until"]) { b, c throws(BuildError) in
            try b.counted(c, window: .skip) { $0.skip($1) }
        },
        .init("takeLast", rac: "takeLast:", [nil], "takeLast(3)") { b, c throws(BuildError) in try b.counted(c, window: nil) { $0.takeLast($1) } },
        .init("startWith", rac: "startWith:", [nil], "startWith(0)") { b, c throws(BuildError) in b.constant(c) { $0.startWith($1) } },
        .init("ignore", rac: "ignore:", [nil], "ignore(0)") { b, c throws(BuildError) in b.constant(c) { $0.ignore($1) } },
        .init("mapReplace", rac: "mapReplace:", [nil], "mapReplace(0)") { b, c throws(BuildError) in b.constant(c) { $0.mapReplace($1) } },
        .init("distinctUntilChanged", rac: "distinctUntilChanged", [], "distinctUntilChanged()") { b, c throws(BuildError) in
            b.plain(c) { $0.distinctUntilChanged() }
        },
        .init("ignoreValues", rac: "ignoreValues", [], "ignoreValues()") { b, c throws(BuildError) in b.plain(c) { $0.ignoreValues() } },
        .init("not", rac: "not", [], "not()") { b, c throws(BuildError) in b.not(c) },
        .init("and", rac: "and", [], "combineLatest(a, b).and()") { b, c throws(BuildError) in b.bools(c) { $0.and() } },
        .init("or", rac: "or", [], "combineLatest(a, b).or()") { b, c throws(BuildError) in b.bools(c) { $0.or() } },
        .init("scan", rac: "scanWithStart:reduce:", [nil, nil], "scan(0) { total, value in total + value }") { b, c throws(BuildError) in
            try b.fold(c) { $0.scanning($1, $2) }
        },
        .init("combinePrevious", rac: "combinePreviousWithStart:reduce:", [nil, nil], "combinePrevious(0) { previous, value in value - previous }") {
            b,
            c throws(BuildError) in
            try b.fold(c) { upstream, seed, step in
                upstream.combinePrevious(seed) { previous, value in Result { () throws(PipelineFailure) in try step(previous, value) } }
                    .attemptMap { result throws(PipelineFailure) in try result.get() }
            }
        },
        .init("aggregate", rac: "aggregateWithStart:reduce:", [nil, nil], "aggregate(0) { total, value in total + value }") {
            b,
            c throws(BuildError) in
            try b.fold(c) { $0.scanning($1, $2).startWith($1).takeLast(1) }
        },
        .init("any", rac: "any:", [nil], "any { $0 > 2 }", predicates: [nil]) { b, c throws(BuildError) in try b.judging(c) { $0.any { $0 } } },
        .init("all", rac: "all:", [nil], "all { $0 > 2 }", predicates: [nil]) { b, c throws(BuildError) in try b.judging(c) { $0.all { $0 } } },
        .init("collect", rac: "collect", [], "collect()") { b, c throws(BuildError) in b.collect(c) },
        // Combining and flattening
        .init("merge", rac: "merge:", ["with"], "merge(with: other)") { b, c throws(BuildError) in try b.binary(c) { $0.merge(with: $1) } },
        .init("combineLatest", rac: "combineLatestWith:", ["with"], "combineLatest(with: other)") { b, c throws(BuildError) in
            try b.binary(c) { $0.combineLatest(with: $1).map { .array([$0, $1]) } }
        },
        .init("zip", rac: "zipWith:", ["with"], "zip(with: other)") { b, c throws(BuildError) in
            try b.binary(c) { $0.zip(with: $1).map { .array([$0, $1]) } }
        },
        .init("sample", rac: "sample:", [nil], "sample(trigger)") { b, c throws(BuildError) in try b.binary(c) { $0.sample($1) } },
        .init("withLatest", rac: "combineLatest:", nil, "withLatest(from: a, b)") { b, c throws(BuildError) in try b.withLatest(c) },
        .init("concat", rac: "concat:", ["with"], "concat(with: other)") { b, c throws(BuildError) in try b.binary(c) { $0.concat($1) } },
        .init("then", rac: "then:", [nil], "then { just(1) }") { b, c throws(BuildError) in try b.then(c) },
        .init("if", rac: "+if:then:else:", ["then", "else"], "if(then: a, else: b)") { b, c throws(BuildError) in try b.ifThenElse(c) },
        .init("flatMap", rac: "flattenMap:", [nil, nil], "flatMap(.latest) { search($0) }") { b, c throws(BuildError) in
            try b.flatMap(c, strategy: nil)
        },
        .init("flattenMap", rac: "flattenMap:", [nil], "flattenMap { search($0) }") { b, c throws(BuildError) in try b.flatMap(c, strategy: .merge) },
        .init("concatMap", rac: "concat", [nil], "concatMap { search($0) }") { b, c throws(BuildError) in try b.flatMap(c, strategy: .concat) },
        // Errors and repetition
        .init("catch", rac: "catch:", [nil], "catch { error in just(error.message) }") { b, c throws(BuildError) in try b.catchError(c) },
        .init("catchTo", rac: "catchTo:", [nil], "catchTo(just(0))") { b, c throws(BuildError) in try b.binary(c) { $0.catchTo($1) } },
        .init("retry", rac: "retry", nil, "retry(3)") { b, c throws(BuildError) in try b.retry(c) },
        .init("repeat", rac: "repeat", [], "repeat()") { b, c throws(BuildError) in b.plain(c) { $0.repeat() } },
        .init("attempt", rac: "try:", [nil], "attempt { $0 > 0 }", predicates: [nil]) { b, c throws(BuildError) in try b.attempt(c) },
        .init("materialize", rac: "materialize", [], "materialize()") { b, c throws(BuildError) in b.materialize(c) },
        .init("dematerialize", rac: "dematerialize", [], "dematerialize()") { b, c throws(BuildError) in b.dematerialize(c) },
        // Time
        .init("throttle", rac: "throttle:", [nil], "throttle(0.5s)") { b, c throws(BuildError) in try b.timed(c) { $0.throttle($1, on: $2) } },
        .init("rateLimit", rac: "—", [nil], "rateLimit(0.5s)") { b, c throws(BuildError) in try b.timed(c) { $0.rateLimit($1, on: $2) } },
        .init("delay", rac: "delay:", [nil], "delay(0.5s)") { b, c throws(BuildError) in try b.timed(c) { $0.delay($1, on: $2) } },
        .init("timeout", rac: "timeout:onScheduler:", ["after"], "timeout(after: 2s)") { b, c throws(BuildError) in try b.timeout(c) },
        .init("buffer", rac: "bufferWithTime:onScheduler:", ["every"], "buffer(every: 1s)") { b, c throws(BuildError) in
            try b.timed(c) { $0.buffer(every: $1, on: $2).map(Value.array) }
        },
        // Schedulers
        .init("deliver", rac: "deliverOn:", ["on"], "deliver(on: background)") { b, c throws(BuildError) in try b.hop(c) { $0.deliver(on: $1) } },
        .init("subscribe", rac: "subscribeOn:", ["on"], "subscribe(on: background)") { b, c throws(BuildError) in
            try b.hop(c) { $0.subscribe(on: $1) }
        },
        // Multicasting
        .init("replay", rac: "replay", [], "replay()") { b, c throws(BuildError) in b.replay(c, capacity: Builder.replayCapacity, lazily: false) },
        .init("replayLast", rac: "replayLast", [], "replayLast()") { b, c throws(BuildError) in b.replay(c, capacity: 1, lazily: false) },
        .init("replayLazily", rac: "replayLazily", [], "replayLazily()") { b, c throws(BuildError) in
            b.replay(c, capacity: Builder.replayCapacity, lazily: true)
        },
        .init("publish", rac: "publish", [], "publish().autoconnect()") { b, c throws(BuildError) in b.publish(c) },
        .init("autoconnect", rac: "autoconnect", [], "publish().autoconnect()") { _, c throws(BuildError) in c.upstream },
    ]

    /// ``all`` by name.
    static let byName: [String: LanguageOperator] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// RAC's spellings the language also takes, each as the operator it names and the arguments it
    /// is written with: `deliverOn(background)` is `deliver(on: background)`. Programs written
    /// before the language took Swift's spelling keep running; the docs, lessons and examples show
    /// only the operator's own name.
    static let racSpellings: [String: (operator: String, shape: [String?])] = [
        "deliverOn": ("deliver", [nil]),
        "subscribeOn": ("subscribe", [nil]),
    ]
}
