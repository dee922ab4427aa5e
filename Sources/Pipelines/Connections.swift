import Reactive

// Multicast connections in the language, as RAC writes them:
//
//     conn = a.multicast(replaySubject(capacity: 1))   // RACMulticastConnection *conn = [a multicast:…]
//     x = conn.signal.map { $0 }                       // [conn.signal map:…]
//     conn.connect()                                   // [conn connect]
//
// A connection line makes one object for the program's life: its subject (made there, or a
// subject line's) and the one subscription to its source that `connect()` makes. Its lane is the
// subject's: every reader of `conn.signal` is a subscriber there. Nothing flows before a connect
// line — at once, or `after(0.5s) { conn.connect() }` — and the program's end disposes what it made.

extension Builder {
    /// The words of connections: made by `multicast`, read through `signal`, started by `connect`.
    static let connectionWords: Set<String> = ["multicast", "signal", "connect"]

    /// The source and subject of a connection line (`conn = SOURCE.multicast(SUBJECT)`), else `nil`.
    static func connectionKind(of definition: StreamDefinition) -> (source: Expression, arguments: [Argument], range: SourceRange)? {
        guard case .call(.member(let source?, "multicast", _), let arguments, let range) = definition.expression else { return nil }
        return (source, arguments, range)
    }

    /// Whether `name` is defined by a connection line.
    func isConnection(_ name: String) -> Bool { connectionLines.contains(name) }

    /// The signal of a connection line — its subject's, reported as the line's stream — with the
    /// connection kept for the lines that connect it; `nil` for any other line.
    mutating func connectionSignal(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        guard let (source, list, range) = Self.connectionKind(of: definition) else { return nil }
        let usage = "\(Checker.shortened(definition.name)) = a.multicast(subject())"
        let arguments = Arguments(name: "multicast", list: list, range: range)
        try arguments.expect([nil], usage: usage)
        let subject: PipelineSubject
        switch arguments[0] {
        case .call(.name(let kind, _), let subjectArguments, let subjectRange) where LanguageSource.byName[kind]?.kind == .subject:
            subject = try makeSubject(kind, subjectArguments, range: subjectRange)
        case .name(let name, let nameRange):
            _ = try streamSignal(name)  // a subject line is made on first use
            guard let named = subjects[name] else {
                throw BuildError(
                    message: "`multicast` sends through a subject, and `\(Checker.shortened(name))` is not one",
                    range: nameRange,
                    hint: "write `\(usage)`, or define `\(Checker.shortened(name)) = subject()`"
                )
            }
            subject = named
        default:
            throw BuildError(
                message: "`multicast` sends through a subject: `subject()`, `replaySubject(capacity: 1)` or a subject line's name",
                range: arguments[0].range,
                hint: "write `\(usage)`"
            )
        }
        let connection = try compile(source, parameters: [])([]).multicast(subject)
        connections[definition.name] = connection
        retained.append(connection)
        let budget = self.budget
        return probe.reporting(connection.signal, as: definition.name).spendingOnSubscription(budget)
    }

    /// What a connection's word means where it was written: `conn.signal` is the connection's
    /// signal; anything else is refused with where it belongs.
    mutating func connectionWord(_ word: String, of base: Expression, at range: SourceRange) throws(BuildError) -> SignalMaker {
        if word == "signal", case .name(let name, _) = base, isConnection(name), let signal = try streamSignal(name) {
            return { _ in signal }
        }
        switch word {
        case "multicast":
            throw BuildError(
                message: "a connection is one object, defined on a line of its own",
                range: range,
                hint: "write `conn = a.multicast(subject())`, then read `conn.signal`"
            )
        case "connect":
            throw BuildError(
                message: "`connect()` is a line of its own, not part of a stream",
                range: range,
                hint: "write `conn.connect()` on a line, or `after(0.5s) { conn.connect() }`"
            )
        default:
            throw BuildError(
                message: "only a connection has `signal`",
                range: range,
                hint: "define `conn = a.multicast(subject())`, then read `conn.signal`"
            )
        }
    }

    /// Refuses a connection read as if it were a signal.
    static func connectionReadAsASignal(_ name: String, at range: SourceRange) -> BuildError {
        BuildError(
            message: "`\(Checker.shortened(name))` is a connection, not a signal (RAC's RACMulticastConnection)",
            range: range,
            hint: "read its subject: `\(Checker.shortened(name)).signal`"
        )
    }

    /// The connection a connect line starts; `nil` when the connection's own line failed (its
    /// problem is reported there).
    func connection(of line: Connect) throws(BuildError) -> MulticastConnection<Value, PipelineFailure>? {
        if let connection = connections[line.connection] { return connection }
        if isConnection(line.connection) { return nil }
        throw BuildError(
            message: "`\(Checker.shortened(line.connection))` is not a connection: `connect()` connects one",
            range: line.connectionRange,
            hint: "define it as `\(Checker.shortened(line.connection)) = a.multicast(subject())`"
        )
    }

    /// Connects `connection` now or `milliseconds` from now, on the session's scheduler; the
    /// program's end disposes the wait and the connection.
    func connect(_ connection: MulticastConnection<Value, PipelineFailure>, after milliseconds: Double) {
        guard milliseconds > 0 else {
            subscriptions.add(connection.connect())
            return
        }
        let subscriptions = self.subscriptions
        subscriptions.add(
            scheduler.schedule(after: .microseconds(Int64((milliseconds * 1_000).rounded()))) {
                subscriptions.add(connection.connect())
            }
        )
    }
}
