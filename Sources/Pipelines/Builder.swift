import Reactive

// How a program becomes signals, apart from the running program that holds them
// (`Interpreter.swift`): the builder is made once per build and read by every family's file
// (`Sources.swift`, `OperatorCalls.swift`, `CommandCalls.swift`…), while the interpreter is the
// public face a server keeps for the program's life. Here: its state, and how a stream and an
// expression are compiled and charged to the budget.

/// Makes a signal given the values of the closures' parameters in scope (none at a stream's top
/// level): a compiled expression, called once per stream, or once per value inside a flattening.
typealias SignalMaker = @Sendable (_ scopes: [Evaluator.Scope]) -> Signal<Value, PipelineFailure>

/// Turns a program's expressions into signals: each named stream cold, reported per subscription.
struct Builder {
    let program: Program
    let scheduler: any Scheduler
    /// The scheduler `background` names in `deliver(on:)` and `subscribe(on:)`.
    let background: any Scheduler
    let services: [String: Service]
    let budget: StepBudget
    let subscriptions: CompoundDisposable
    /// `false` to only find build errors: no stream is subscribed.
    let subscribes: Bool
    let probe: StreamProbe
    let start: Duration
    private(set) var inputs: [String: Subject<Value, PipelineFailure>] = [:]
    /// The declared inputs that read a given signal instead of a subject.
    let external: [String: Signal<Value, PipelineFailure>]
    private var shared: [String: Signal<Value, PipelineFailure>] = [:]
    /// The other signals of each command definition, by its name.
    var commands: [String: CommandSignals] = [:]
    /// What the interpreter keeps alive while it runs (the commands, the subjects).
    var retained: [any AnyObject & Sendable] = []
    /// Each subject line's subject, by its name, for the lines that feed it and the connections
    /// that multicast through it.
    var subjects: [String: PipelineSubject] = [:]
    /// Each connection line's connection (`conn = a.multicast(subject())`), by its name.
    var connections: [String: MulticastConnection<Value, PipelineFailure>] = [:]
    /// Each channel line's channel (`ch = channel()`), by its name.
    var channels: [String: Channel<Value, PipelineFailure>] = [:]
    /// The names of the connection lines and of the channel lines, found once: every name a
    /// stream reads is looked up in them.
    let connectionLines: Set<String>
    let channelLines: Set<String>
    private(set) var errors: [BuildError] = []
    /// Every `marbles(…)` source built, for drawing the program's streams.
    var marbleSources: [MarbleSource] = []
    /// The named stream being compiled: a source inside it (a service call, a timer, a `just` made
    /// in a flattening) is reported as `stream·source`, each call a subscription of its own; `nil`
    /// where the source is the whole stream (its subscriptions are the stream's).
    var sourceOwner: String?
    /// Whether the next source compiled is the whole stream being compiled.
    var streamIsOneSource = false
    /// The names reported for the sources inside each named stream (`r·request`), in order.
    var reportedSources: [String: [String]] = [:]

    init(
        program: Program,
        scheduler: any Scheduler,
        background: any Scheduler,
        services: [String: Service],
        budget: StepBudget,
        subscriptions: CompoundDisposable,
        probe: StreamProbe,
        subscribes: Bool = true,
        external: [String: Signal<Value, PipelineFailure>] = [:]
    ) {
        self.program = program
        self.scheduler = scheduler
        self.background = background
        self.services = services
        self.budget = budget
        self.subscriptions = subscriptions
        self.subscribes = subscribes
        self.probe = probe
        start = scheduler.now
        self.external = external.filter { name, _ in program.inputs.contains { $0.name == name } }
        connectionLines = Set(program.streams.filter { Self.connectionKind(of: $0) != nil }.map(\.name))
        channelLines = Set(program.streams.filter(Self.isChannelLine).map(\.name))
        for input in program.inputs where self.external[input.name] == nil { inputs[input.name] = Subject() }
    }

    mutating func buildAll() {
        for stream in program.streams where shared[stream.name] == nil {
            do throws(BuildError) {
                _ = try streamSignal(stream.name)
            } catch {
                // A stream read by others is tried again by each: its problem is reported once.
                if !errors.contains(where: { $0.message == error.message && $0.range == error.range }) { errors.append(error) }
            }
        }
        var feeds: [(line: Int, signal: Signal<Value, PipelineFailure>, into: Subscriber<Value, PipelineFailure>)] = []
        for feed in program.feeds {
            do throws(BuildError) {
                if let (signal, input) = try self.feed(feed) { feeds.append((feed.range.line, signal, input)) }
            } catch {
                errors.append(error)
            }
        }
        var connects: [(line: Int, connection: MulticastConnection<Value, PipelineFailure>, after: Double)] = []
        for line in program.connects {
            do throws(BuildError) {
                if let connection = try connection(of: line) { connects.append((line.range.line, connection, line.delayMilliseconds)) }
            } catch {
                errors.append(error)
            }
        }
        guard subscribes, errors.isEmpty else { return }
        // The session subscribes to what the learner watches — the streams no other stream or
        // feeding line reads — and runs each feeding and connecting line, in the order of their
        // lines, as the statements of RAC code run.
        let known = Set(program.inputs.map(\.name)).union(program.streams.map(\.name))
        var read: Set<String> = []
        for stream in program.streams {
            var names: [String] = []
            stream.expression.collectNames(into: &names, known: known)
            read.formUnion(names.filter { $0 != stream.name })
        }
        for feed in program.feeds {
            var names: [String] = []
            feed.source.collectNames(into: &names, known: known)
            read.formUnion(names)
        }
        var starts: [(line: Int, start: () -> Void)] = []
        for stream in program.streams where !read.contains(stream.name) && !stream.isCommand && !Self.isChannelLine(stream) {
            guard let signal = shared[stream.name] else { continue }
            starts.append((stream.range.line, { [subscriptions] in subscriptions.add(signal.subscribe(Subscriber { _ in })) }))
        }
        for feed in feeds {
            starts.append((feed.line, { [subscriptions] in subscriptions.add(feed.signal.subscribe(feed.into)) }))
        }
        for line in connects {
            starts.append((line.line, { [self] in connect(line.connection, after: line.after) }))
        }
        for (_, start) in starts.sorted(by: { $0.line < $1.line }) where !budget.isExhausted { start() }
    }

    /// The signal of the input or stream `name`, building the stream on first use: an input's
    /// subject, a stream's cold signal (reported per subscription), or a command line's shared one.
    mutating func streamSignal(_ name: String) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        if let input = inputs[name] { return input.signal }
        if let signal = external[name] { return signal }
        if let signal = shared[name] { return signal }
        guard let definition = program.streams.first(where: { $0.name == name }) else { return nil }
        let outerOwner = sourceOwner
        sourceOwner = name
        defer { sourceOwner = outerOwner }
        if let object = try objectSignal(definition) {
            shared[name] = object
            return object
        }
        guard definition.isCommand else {
            let signal = probe.reporting(try compileChain(definition), as: name)
            shared[name] = signal
            return signal
        }
        // A command is an object bound to its trigger: subscribed once by the session, its latest
        // value replayed to readers, so that no reader executes it again.
        let signal = try compileCommand(definition)
        let subject = ReplaySubject<Value, PipelineFailure>(capacity: 1)
        shared[name] = subject.signal
        guard subscribes else { return subject.signal }
        subscriptions.add(probe.reporting(signal, as: name).subscribe(subject.input))
        return subject.signal
    }

    /// The signal of a line that makes one object for the program's life — a subject, a
    /// connection, a channel — or `nil` for any other line.
    private mutating func objectSignal(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        if let signal = try subjectSignal(definition) { return signal }
        if let signal = try connectionSignal(definition) { return signal }
        return try channelSignal(definition)
    }

    // MARK: Compiling expressions into signals

    /// A named stream's signal, every operator of its chain but the last reported as a stage of
    /// its own (`results·filter`); the last operator's output is the stream itself.
    private mutating func compileChain(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure> {
        let (root, links) = definition.links
        guard !links.isEmpty else {
            // A stream that is one source (`r = request()`): its subscriptions are the source's, which
            // is not reported apart (what its arguments make is: `merge(request(), request())`).
            switch root {
            case .call(.name(let source, _), _, _), .name(let source, _): streamIsOneSource = Vocabulary.sources.contains(source)
            default: break
            }
            defer { streamIsOneSource = false }
            return try compile(definition.expression, parameters: [])([])
        }
        var maker = try compile(root, parameters: [])
        let stages = definition.stageNames
        for (index, link) in links.enumerated() {
            let arguments = Arguments(name: link.name, list: link.arguments, range: link.range)
            maker = spending(try apply(link.name, to: maker, arguments, parameters: []), by: link.name, at: link.range)
            if index < stages.count { maker = reporting(maker, as: stages[index]) }
        }
        return maker([])
    }

    /// `maker`'s signals, each subscription's events also reported as the stage `name`'s.
    private func reporting(_ maker: @escaping SignalMaker, as name: String) -> SignalMaker {
        let probe = self.probe
        return { scopes in probe.reporting(maker(scopes), as: name) }
    }

    /// Compiles `expression`, which must denote a signal; `parameters` are the closure parameters
    /// in scope (names that are values, not signals).
    mutating func compile(_ expression: Expression, parameters: [[String]]) throws(BuildError) -> SignalMaker {
        switch expression {
        case .name(let name, let range):
            if parameters.contains(where: { $0.contains(name) }) {
                throw BuildError(message: "`\(name)` is a value; a signal is needed here", range: range, hint: "write `just(\(name))`")
            }
            if isConnection(name) { throw Self.connectionReadAsASignal(name, at: range) }
            if isChannel(name) { throw Self.channelReadAsASignal(name, at: range) }
            if let signal = try streamSignal(name) {
                let budget = self.budget
                return { _ in signal.spendingOnSubscription(budget) }
            }
            return spending(try source(name, Arguments(name: name, list: [], range: range), parameters: parameters), by: name, at: range)
        case .call(.name(let name, _), let arguments, let range):
            guard inputs[name] == nil, external[name] == nil, !program.streams.contains(where: { $0.name == name }) else {
                throw BuildError(message: "`\(name)` is a stream; it cannot be called", range: range)
            }
            return spending(try source(name, Arguments(name: name, list: arguments, range: range), parameters: parameters), by: name, at: range)
        case .member(let base?, let name, let range) where Self.terminals.contains(name):
            return try terminalSignal(name, of: base, at: range)
        case .call(.member(let base?, let name, _), _, let range) where Self.connectionWords.contains(name),
            .member(let base?, let name, let range) where Self.connectionWords.contains(name):
            let maker = try connectionWord(name, of: base, at: range)
            let budget = self.budget
            return { scopes in maker(scopes).spendingOnSubscription(budget) }
        case .call(.member(let base?, let name, _), let arguments, let range):
            let upstream = try compile(base, parameters: parameters)
            return spending(
                try apply(name, to: upstream, Arguments(name: name, list: arguments, range: range), parameters: parameters),
                by: name,
                at: range
            )
        case .member(.name(let base, _)?, let name, let range)
        where program.streams.contains(where: { $0.name == base && $0.isCommand }):
            return try commandMember(base, name, range: range)
        case .member(_?, let name, let range):
            throw BuildError(message: "`\(name)` is an operator: call it", range: range, hint: "write `.\(name)()`")
        case .conditional(let condition, let whenTrue, let whenFalse, let range):
            // `flag ? a : b` chooses a signal by a value (RAC `+if:then:else:` is
            // `flags.flatMap(.latest) { $0 ? a : b }`).
            let choices = (try compile(whenTrue, parameters: parameters), try compile(whenFalse, parameters: parameters))
            let budget = self.budget
            return { scopes in
                do throws(PipelineFailure) {
                    guard case .bool(let flag) = try Evaluator(scopes: scopes, budget: budget).evaluate(condition) else {
                        throw .closure("`? :` needs a bool before `?`", at: range)
                    }
                    return flag ? choices.0(scopes) : choices.1(scopes)
                } catch {
                    return .failure(error)
                }
            }
        default:
            throw BuildError(
                message: "a signal is needed here, not a value",
                range: expression.range,
                hint: "a value becomes a signal with `just(…)`"
            )
        }
    }

    /// `maker`'s signals, each subscription and value charged to the program's budget, each value
    /// measured against its size limit (`name` at `range` made it).
    private func spending(_ maker: @escaping SignalMaker, by name: String, at range: SourceRange) -> SignalMaker {
        let budget = self.budget
        return { scopes in maker(scopes).spending(budget, by: name, at: range) }
    }

    /// A value closure: its result for the given arguments, or the failure it ran into.
    func valueClosure(
        _ arguments: Arguments,
        _ index: Int
    )
        throws(BuildError) -> @Sendable ([Evaluator.Scope], [Value]) throws(PipelineFailure) -> Value
    {
        let (names, body) = try arguments.closure(index)
        let budget = self.budget
        return { scopes, values throws(PipelineFailure) in
            try Evaluator(scopes: scopes + [Evaluator.Scope(parameters: names, arguments: values)], budget: budget).evaluate(body)
        }
    }

    /// A signal closure (the function of a flattening): the signal it makes for a value.
    mutating func signalClosure(
        _ arguments: Arguments,
        _ index: Int,
        parameters: [[String]]
    )
        throws(BuildError) -> @Sendable ([Evaluator.Scope], Value) -> Signal<Value, PipelineFailure>
    {
        let (names, body) = try arguments.closure(index)
        let maker = try compile(body, parameters: parameters + [names.isEmpty ? [] : names])
        return { scopes, value in maker(scopes + [Evaluator.Scope(parameters: names, arguments: [value])]) }
    }

    /// A value argument, evaluated each time the signal is subscribed (it may read parameters).
    func valueArgument(_ arguments: Arguments, _ index: Int) -> @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Value {
        let expression = arguments[index]
        let budget = self.budget
        return { scopes throws(PipelineFailure) in try Evaluator(scopes: scopes, budget: budget).evaluate(expression) }
    }

    /// The whole milliseconds since the program started, as `interval` and `timer` send them.
    var elapsed: @Sendable () -> Value {
        let scheduler = self.scheduler
        let start = self.start
        return { .number((Double((scheduler.now - start) / .microseconds(1)) / 1_000).rounded()) }
    }
}
