/// Finds the streams whose work runs more often than a reader of the program may think: a named
/// stream is cold, as RAC's signals are, so each subscription to it runs its work again, and a
/// stream that calls a service or starts a timer, subscribed several times without sharing,
/// makes several requests or timers. Each is a warning, not an error: it may be what is meant.
struct SharingCheck {
    /// Sources whose every subscription is work of its own: the services and the timers, as the
    /// source table says (``LanguageSource/subscriptionIsWork``).
    static let sourcesWithWork: Set<String> = Set(LanguageSource.all.filter(\.subscriptionIsWork).map(\.name))
    /// Operators after which a stream is shared: subscribed once upstream however often it is read.
    static let sharing: Set<String> = ["replay", "replayLast", "replayLazily", "autoconnect", "multicast"]
    /// More subscriptions than anyone counts; keeps the products below from growing without end.
    private static let many = 1_000_000.0

    let program: Program
    /// For each stream, the names its definition uses (the checker's).
    let uses: [String: [String]]

    /// A warning for each stream with work that is subscribed more than once, naming its readers.
    func warnings() -> [Diagnostic] {
        // A name refers to its first definition.
        var definitions: [String: StreamDefinition] = [:]
        for stream in program.streams where definitions[stream.name] == nil { definitions[stream.name] = stream }
        var readers: [String: [String]] = [:]
        for stream in program.streams where definitions[stream.name]?.range == stream.range {
            for used in uses[stream.name] ?? [] where definitions[used] != nil { readers[used, default: []].append(stream.name) }
        }
        var subscriptions: [String: Double] = [:]
        for name in readersFirst(definitions) {
            guard definitions[name] != nil else { continue }
            var count = readers[name] == nil ? 1.0 : 0
            for reader in readers[name] ?? [] {
                guard let readerDefinition = definitions[reader] else { continue }
                let times = Double(readerDefinition.expression.occurrences(of: name))
                let perReader = Self.isShared(readerDefinition) ? min(1, subscriptions[reader] ?? 0) : subscriptions[reader] ?? 0
                count = min(Self.many, count + times * perReader)
            }
            subscriptions[name] = count
        }
        var warnings: [Diagnostic] = []
        for stream in program.streams where definitions[stream.name]?.range == stream.range {
            let count = subscriptions[stream.name] ?? 0
            guard count > 1, !Self.isShared(stream), !stream.isCommand, stream.expression.uses(Self.sourcesWithWork) else { continue }
            let names = (readers[stream.name] ?? []).map { "`\($0)`" }
            let times = count >= Self.many ? "a million times or more" : "\(Int(count)) times"
            warnings.append(
                Diagnostic(
                    .warning,
                    "`\(stream.name)` is subscribed \(times) (read by \(names.joined(separator: " and "))): each subscription makes its own requests or timers, as RAC's cold signals do",
                    at: stream.range,
                    hint: "share it with `replayLazily()` (or `publish().autoconnect()`) if that is not what you want"
                )
            )
        }
        return warnings
    }

    static func isShared(_ stream: StreamDefinition) -> Bool {
        stream.isCommand || sharing.contains(stream.links.links.last?.name ?? "")
    }

    /// The streams, each after every stream that reads it (an iterative depth-first post-order
    /// over the streams read, reversed, so that a long chain cannot exhaust the stack). Runs on a
    /// program without cycles.
    private func readersFirst(_ definitions: [String: StreamDefinition]) -> [String] {
        var order: [String] = []
        var finished: Set<String> = []
        for stream in program.streams where !finished.contains(stream.name) && definitions[stream.name] != nil {
            var stack: [(name: String, next: Int)] = [(stream.name, 0)]
            finished.insert(stream.name)
            while let top = stack.last {
                let dependencies = (uses[top.name] ?? []).filter { definitions[$0] != nil }
                if top.next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    let dependency = dependencies[top.next]
                    if finished.insert(dependency).inserted { stack.append((dependency, 0)) }
                } else {
                    stack.removeLast()
                    order.append(top.name)
                }
            }
        }
        return order.reversed()
    }
}

extension Expression {
    /// The expressions directly inside this one (a closure's body among them).
    var subexpressions: [Expression] {
        switch self {
        case .number, .duration, .string, .bool, .null, .name, .parameter: []
        case .interpolation(let parts, _): parts.compactMap { if case .expression(let part) = $0 { part } else { nil } }
        case .array(let elements, _): elements
        case .dictionary(let entries, _): entries.map(\.value)
        case .member(let base, _, _): base.map { [$0] } ?? []
        case .call(let callee, let arguments, _): [callee] + arguments.map(\.value)
        case .subscripted(let base, let index, _): [base, index]
        case .unary(_, let operand, _): [operand]
        case .binary(_, let left, let right, _): [left, right]
        case .conditional(let condition, let whenTrue, let whenFalse, _): [condition, whenTrue, whenFalse]
        case .closure(_, let body, _): [body]
        case .block(let statements, _): statements
        }
    }

    /// How many times the name `name` appears in this expression (each is a subscription).
    func occurrences(of name: String) -> Int {
        var count = 0
        var pending = [self]
        while let next = pending.popLast() {
            if case .name(name, _) = next { count += 1 }
            pending.append(contentsOf: next.subexpressions)
        }
        return count
    }

    /// Whether this expression names any of `names` (a source called or read).
    func uses(_ names: Set<String>) -> Bool {
        var pending = [self]
        while let next = pending.popLast() {
            if case .name(let name, _) = next, names.contains(name) { return true }
            pending.append(contentsOf: next.subexpressions)
        }
        return false
    }
}
