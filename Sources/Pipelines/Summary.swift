/// What a program's stream is, for a catalogue entry: the operator that makes it, the streams and
/// inputs it reads, and whether it is a state stream (its latest value is part of a new watcher's
/// snapshot).
public struct StreamSummary: Sendable, Equatable {
    /// The stream's name.
    public var name: String
    /// The last operator of its chain (`throttle`), or its source (`interval`, `combineLatest`).
    public var `operator`: String
    /// The inputs and streams its definition reads, in order of first use.
    public var from: [String]
    /// Whether it holds a current value: see ``Program/summaries``.
    public var isState: Bool
}

extension Program {
    /// One summary per stream, in program order.
    ///
    /// The state rule: a stream is a state stream when its chain starts from an input that is not
    /// an action, or from a state stream, and no operator of the chain flattens (`flatMap`,
    /// `flattenMap`, `concatMap`, `catch`): then, like a text field, it always has a latest value
    /// worth showing a new watcher. Streams of sources (`interval`, `just`), of actions, and the
    /// results of flattenings are event streams.
    public var summaries: [StreamSummary] {
        let actions = Set(inputs.filter { $0.kind == .action }.map(\.name))
        let valueInputs = Set(inputs.map(\.name)).subtracting(actions)
        var state: [String: Bool] = [:]
        var summaries: [StreamSummary] = []
        let definitions = Dictionary(streams.map { ($0.name, $0.expression) }, uniquingKeysWith: { first, _ in first })
        /// Whether the stream `name` is a state stream, resolving the streams it starts from first.
        func isState(_ name: String, visiting: Set<String> = []) -> Bool {
            if let known = state[name] { return known }
            if valueInputs.contains(name) { return true }
            guard let expression = definitions[name], !visiting.contains(name) else { return false }
            let (root, operators) = expression.chain
            let flattens = operators.contains { ["flatMap", "flattenMap", "concatMap", "catch"].contains($0) }
            let result: Bool
            if case .name(let source, _) = root, !flattens {
                result = isState(source, visiting: visiting.union([name]))
            } else {
                result = false
            }
            state[name] = result
            return result
        }
        let known = Set(inputs.map(\.name)).union(streams.map(\.name))
        for stream in streams {
            let (root, operators) = stream.expression.chain
            let source: String
            switch root {
            case .name(let name, _): source = name
            case .call(.name(let name, _), _, _): source = name
            default: source = "value"
            }
            var from: [String] = []
            stream.expression.collectNames(into: &from, known: known)
            summaries.append(StreamSummary(name: stream.name, operator: operators.last ?? source, from: from,
                                           isState: isState(stream.name)))
        }
        return summaries
    }
}

extension Expression {
    /// The chain's root (a name or a source call) and its operators, first to last.
    var chain: (root: Expression, operators: [String]) {
        var operators: [String] = []
        var current = self
        while true {
            switch current {
            case .call(.member(let base?, let name, _), _, _), .member(let base?, let name, _):
                operators.append(name)
                current = base
            default:
                return (current, operators.reversed())
            }
        }
    }

    /// Appends the names in `known` that this expression uses, each once.
    func collectNames(into names: inout [String], known: Set<String>) {
        switch self {
        case .name(let name, _):
            if known.contains(name), !names.contains(name) { names.append(name) }
        case .interpolation(let parts, _):
            for case .expression(let part) in parts { part.collectNames(into: &names, known: known) }
        case .array(let elements, _):
            elements.forEach { $0.collectNames(into: &names, known: known) }
        case .dictionary(let entries, _):
            entries.forEach { $0.value.collectNames(into: &names, known: known) }
        case .member(let base, _, _):
            base?.collectNames(into: &names, known: known)
        case .call(let callee, let arguments, _):
            callee.collectNames(into: &names, known: known)
            arguments.forEach { $0.value.collectNames(into: &names, known: known) }
        case .subscripted(let base, let index, _):
            base.collectNames(into: &names, known: known)
            index.collectNames(into: &names, known: known)
        case .unary(_, let operand, _):
            operand.collectNames(into: &names, known: known)
        case .binary(_, let left, let right, _):
            left.collectNames(into: &names, known: known)
            right.collectNames(into: &names, known: known)
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            for part in [condition, whenTrue, whenFalse] { part.collectNames(into: &names, known: known) }
        case .closure(_, let body, _):
            body.collectNames(into: &names, known: known)
        case .number, .duration, .string, .bool, .null, .parameter:
            break
        }
    }
}
