import Reactive

/// A problem found while turning a checked program into signals: a wrong argument, a closure where
/// a signal is needed… Reported as a diagnostic at `range`.
struct BuildError: Error {
    let message: String
    let range: SourceRange
    var hint: String?

    var diagnostic: Diagnostic { Diagnostic(.error, message, at: range, hint: hint) }
}

/// The arguments of one operator or source call, read with their expected labels and kinds.
struct Arguments {
    let name: String
    let list: [Argument]
    let range: SourceRange

    /// Refuses the call unless its labels are exactly `labels` (`nil`: no label), in order.
    func expect(_ labels: [String?], usage: String) throws(BuildError) {
        guard list.map(\.label) == labels else {
            throw BuildError(
                message: "`\(name)` takes \(Arguments.describe(labels)), not \(Arguments.describe(list.map(\.label)))",
                range: range,
                hint: "write `\(usage)`"
            )
        }
    }

    private static func describe(_ labels: [String?]) -> String {
        if labels.isEmpty { return "no arguments" }
        return "(" + labels.map { $0.map { "\($0):" } ?? "_" }.joined(separator: ", ") + ")"
    }

    subscript(index: Int) -> Expression { list[index].value }

    /// A literal whole number from 0 to `maximum`.
    func count(_ index: Int, maximum: Int = 1_000_000) throws(BuildError) -> Int {
        guard case .number(let value, _) = self[index], value.rounded() == value, value >= 0, value <= Double(maximum) else {
            throw BuildError(message: "`\(name)` needs a whole number from 0 to \(maximum) here", range: self[index].range)
        }
        return Int(value)
    }

    /// A duration literal of at least `minimum` milliseconds (and at most an hour).
    func duration(_ index: Int, minimum: Double = Interpreter.minimumInterval) throws(BuildError) -> Duration {
        switch self[index] {
        case .duration(let milliseconds, let range):
            guard milliseconds >= minimum, milliseconds <= 3_600_000 else {
                throw BuildError(
                    message: "`\(name)` needs a duration from \(Value.format(minimum))ms to 1 hour, not \(Value.format(milliseconds))ms",
                    range: range
                )
            }
            return .microseconds(Int64((milliseconds * 1_000).rounded()))
        case .number(_, let range):
            throw BuildError(message: "`\(name)` needs a duration", range: range, hint: "add a unit: `500ms`, `0.5s` or `2min`")
        default:
            throw BuildError(message: "`\(name)` needs a duration literal such as `0.5s`", range: self[index].range)
        }
    }

    /// The name of one of the program's schedulers (``Vocabulary/schedulers``), written bare:
    /// `deliver(on: background)`.
    func schedulerName(_ index: Int) throws(BuildError) -> String {
        guard case .name(let name, _) = self[index], Vocabulary.schedulers.contains(name) else {
            throw BuildError(
                message: "`\(name)` needs a scheduler here: `session` or `background`",
                range: self[index].range,
                hint: LanguageOperator.racSpellings[name] == nil ? "write `\(name)(on: background)`" : "write `\(name)(background)`"
            )
        }
        return name
    }

    /// A closure's parameters and its body, one expression.
    func closure(_ index: Int) throws(BuildError) -> (parameters: [String], body: Expression) {
        let (parameters, body) = try block(index)
        if case .block(let lines, let range) = body, lines.isEmpty {
            throw BuildError(message: "`\(name)`'s closure is empty", range: range, hint: "write an expression: `{ $0 * 2 }`")
        }
        if case .block(_, let range) = body {
            throw BuildError(
                message: "`\(name)`'s closure is one expression, not several lines",
                range: range,
                hint: "only `createSignal { subscriber in … }` runs lines one after another"
            )
        }
        return (parameters, body)
    }

    /// A closure's parameters and body, which may be several lines (``Expression/block(_:_:)``).
    func block(_ index: Int) throws(BuildError) -> (parameters: [String], body: Expression) {
        guard case .closure(let parameters, let body, _) = self[index] else {
            throw BuildError(message: "`\(name)` needs a closure here", range: self[index].range, hint: "write `{ … }`")
        }
        return (parameters, body)
    }

    /// The most inner signals `flatMap(.concurrent(limit: n))` may take at once.
    static let concurrencyLimit = 100

    /// `.latest`, `.merge`, `.concat` or `.concurrent(limit: n)` (n from 1 to 100): how `flatMap`
    /// flattens.
    func flattenStrategy(_ index: Int) throws(BuildError) -> FlattenStrategy {
        if case .call(.member(nil, "concurrent", _), let list, let range) = self[index] {
            let limit = Arguments(name: "concurrent", list: list, range: range)
            try limit.expect(["limit"], usage: "flatMap(.concurrent(limit: 2)) { search($0) }")
            guard case .number(let value, _) = limit[0], value.rounded() == value, value >= 1, value <= Double(Self.concurrencyLimit) else {
                throw BuildError(
                    message: "`.concurrent` needs a whole number of inner streams from 1 to \(Self.concurrencyLimit)",
                    range: limit[0].range
                )
            }
            return .concurrent(limit: Int(value))
        }
        guard case .member(nil, let option, _) = self[index], ["latest", "merge", "concat"].contains(option) else {
            throw BuildError(
                message: "`\(name)` needs one of `.latest`, `.merge`, `.concat` or `.concurrent(limit: n)` here",
                range: self[index].range
            )
        }
        return option == "latest" ? .latest : option == "merge" ? .merge : .concat
    }
}
