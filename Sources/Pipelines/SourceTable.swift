import Reactive

/// `NAME(arguments)`, or a bare `NAME`, as a source's builder is given it.
struct SourceCall {
    /// The source's name, for messages only: a builder serving several sources is given what
    /// differs as a parameter by each table entry, never reads it from the name.
    let name: String
    /// How a call is written (the entry's ``LanguageSource/usage``), for messages.
    let usage: String
    let arguments: Arguments
    /// The closure parameters in scope (names that are values, not signals).
    let parameters: [[String]]
}

/// One source of the language — what a stream may start from besides inputs and other streams —:
/// the one place it is spelled, as ``LanguageOperator`` is an operator's. The vocabulary (and so
/// the checker's names and suggestions), the sharing check, the time scale, the interpreter and
/// the server's services (``Service/declared(_:)``) read ``all``; `SourceTableTests` holds each
/// of them and docs/PIPELINES.md to it.
struct LanguageSource: Sendable {
    /// What a subscription to the source does, the facts its readers besides the interpreter need:
    /// whether each subscription is work of its own (``SharingCheck``) and how long it waits
    /// (``TimeScale``).
    enum Kind: Equatable, Sendable {
        /// Sends what its arguments give, at once (`just(1)`, `empty`): no work of its own.
        case values
        /// Combines the signals it is given (`merge(a, b)`): their work and their waits, no more.
        case combining
        /// A timer (`interval(1s)`): each subscription starts one, which waits its duration literal.
        case timer
        /// A marble row (`marbles("-a-b|")`): each subscription plays it again; it lasts its frames.
        case marbles
        /// A subject (`subject()`, `replaySubject(capacity: 1)`): one object on a line of its own,
        /// hot, whose readers are its subscribers; it sends what the lines feeding it send.
        case subject
        /// A block of its own (`createSignal { subscriber in … }`): each subscription runs it
        /// again, as RAC runs `createSignal:`'s block per subscriber; it waits its `after`s.
        case block
        /// One of the scenarios' services, whose work the server gives (`search(query)`): each
        /// subscription a request of its own, answered after the services' latency.
        case service(Service.Name, arity: Int)
        /// No source: a name that starts a line of its own (`command`), in the table so that the
        /// checker takes it and the builder, finding it inside a stream, says where it belongs.
        case line
    }

    /// Its name in a program.
    let name: String
    let kind: Kind
    /// Its arguments' labels, checked before it is built; `nil` where it takes several forms
    /// (`merge(a, b, …)`) or checks them itself.
    let shape: [String?]?
    /// How a call is written, for messages and docs/PIPELINES.md.
    let usage: String
    /// Builds the source's signals.
    let build: @Sendable (inout Builder, SourceCall) throws(BuildError) -> SignalMaker

    init(
        _ name: String,
        _ kind: Kind,
        _ shape: [String?]?,
        _ usage: String,
        _ build: @escaping @Sendable (inout Builder, SourceCall) throws(BuildError) -> SignalMaker
    ) {
        self.name = name
        self.kind = kind
        self.shape = shape
        self.usage = usage
        self.build = build
    }

    /// One of the scenarios' services: its name is its ``Service/Name``, its signal the one the
    /// server provides under that name (checked against the provided service's own arity).
    static func service(_ name: Service.Name, arity: Int, _ usage: String) -> LanguageSource {
        .init(name.rawValue, .service(name, arity: arity), nil, usage) { b, c throws(BuildError) in try b.service(c.name, c.arguments) }
    }

    /// Whether each subscription is work of its own — a request, a timer, a row played again — so
    /// that a stream calling it, subscribed several times without sharing, repeats the work.
    var subscriptionIsWork: Bool {
        switch kind {
        case .timer, .marbles, .block, .service: true
        case .values, .combining, .subject, .line: false
        }
    }

    /// Whether it answers after the services' latency.
    var waitsForTheServices: Bool {
        if case .service = kind { return true }
        return false
    }

    /// Every source, by family.
    static let all: [LanguageSource] = [
        // Values
        .init("just", .values, [nil], "just(1)") { b, c throws(BuildError) in b.just(c) },
        .init("from", .values, [nil], "from([1, 2, 3])") { b, c throws(BuildError) in b.from(c) },
        .init("empty", .values, [], "empty") { _, _ throws(BuildError) in { _ in .empty } },
        .init("never", .values, [], "never") { _, _ throws(BuildError) in { _ in .never } },
        .init("failure", .values, [nil], "failure(\"message\")") { b, c throws(BuildError) in b.failure(c) },
        // Time
        .init("interval", .timer, [nil], "interval(1s)") { b, c throws(BuildError) in try b.interval(c) },
        .init("timer", .timer, ["after"], "timer(after: 2s)") { b, c throws(BuildError) in try b.timer(c) },
        .init("marbles", .marbles, nil, "marbles(\"-a-b-|\", a: 1, b: 2, frame: 100ms)") { b, c throws(BuildError) in
            try b.marbles(c.arguments, usage: c.usage)
        },
        // A block run per subscription (RAC's `+createSignal:`)
        .init("createSignal", .block, nil, Builder.createSignalUsage) { b, c throws(BuildError) in try b.createSignal(c) },
        // Subjects, each on a line of its own (RAC's `RACSubject`, `RACReplaySubject`)
        .init("subject", .subject, nil, "subject()") { _, c throws(BuildError) in throw Builder.subjectOutsideItsLine(c) },
        .init("replaySubject", .subject, nil, "replaySubject(capacity: 1)") { _, c throws(BuildError) in throw Builder.subjectOutsideItsLine(c) },
        // A channel, on a line of its own (RAC's `RACChannel`): two terminals, read and fed
        .init("channel", .line, [], "channel()") { _, c throws(BuildError) in throw Builder.channelOutsideItsLine(c) },
        // Combining
        .init("combineLatest", .combining, nil, "combineLatest(a, b)") { b, c throws(BuildError) in
            try b.combining(c) { Signal.combineLatest($0).map(Value.array) }
        },
        .init("merge", .combining, nil, "merge(a, b)") { b, c throws(BuildError) in try b.combining(c) { Signal.merge($0) } },
        .init("zip", .combining, nil, "zip(a, b)") { b, c throws(BuildError) in try b.combining(c) { Signal.zip($0).map(Value.array) } },
        .init("concat", .combining, nil, "concat(a, b)") { b, c throws(BuildError) in try b.combining(c) { Signal.concat($0) } },
        // The scenarios' services
        .service(.search, arity: 1, "search(query)"),
        .service(.signIn, arity: 2, "signIn(user, password)"),
        .service(.subscribe, arity: 1, "subscribe(email)"),
        .service(.request, arity: 0, "request()"),
        // Lines of their own
        .init("command", .line, nil, "c = command { … }.execute(on: trigger)") { _, c throws(BuildError) in
            throw BuildError(message: "a command is defined on a line of its own", range: c.arguments.range, hint: "write `\(c.usage)`")
        },
    ]

    /// ``all`` by name.
    static let byName: [String: LanguageSource] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
