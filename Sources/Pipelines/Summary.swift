/// What a program's stream or stage is, for a catalogue entry: the operator that makes it, the
/// streams and inputs it reads, whether it is a state stream (its latest value is part of a new
/// watcher's snapshot), and where it is written.
public struct StreamSummary: Sendable, Equatable {
    /// The stream's name; a stage's is `line·operator` (`results·filter`), with `·2`, `·3`… when
    /// the operator repeats in the line.
    public var name: String
    /// The last operator of its chain (`throttle`), or its source (`interval`, `combineLatest`).
    public var `operator`: String
    /// The inputs, streams and stages it reads, in order of first use.
    public var from: [String]
    /// Whether it holds a current value: see ``Program/summaries``.
    public var isState: Bool
    /// The line it is written on (for a stage, its operator's line), from 1.
    public var line: Int
    /// The column of its name (for a stage, its operator's name), from 1, in UTF-16 code units.
    public var column: Int
    /// For a stage, the named stream whose chain it is part of; `nil` for a named stream.
    public var stageOf: String?
}

/// One operator of a chain: `.name(arguments)`.
struct ChainLink: Sendable {
    let name: String
    let arguments: [Argument]
    /// The whole call, for diagnostics.
    let range: SourceRange
    /// The operator's name.
    let nameRange: SourceRange
}

extension StreamDefinition {
    /// The chain's root and its operators, first to last (`nil` links: not a chain of calls).
    var links: (root: Expression, links: [ChainLink]) {
        var links: [ChainLink] = []
        var current = expression
        while case .call(.member(let base?, let name, let memberRange), let arguments, let range) = current {
            let nameStart = max(memberRange.column, memberRange.endColumn - name.utf16.count)
            links.append(
                ChainLink(
                    name: name,
                    arguments: arguments,
                    range: range,
                    nameRange: SourceRange(line: memberRange.line, column: nameStart, endColumn: memberRange.endColumn)
                )
            )
            current = base
        }
        return (current, links.reversed())
    }

    /// The names of the chain's stages: every operator but the last, which makes the stream itself.
    var stageNames: [String] {
        var seen: [String: Int] = [:]
        return links.links.dropLast().map { link in
            seen[link.name, default: 0] += 1
            let count = seen[link.name]!
            return count == 1 ? "\(name)·\(link.name)" : "\(name)·\(link.name)·\(count)"
        }
    }
}

extension Program {
    /// One summary per stage and stream, in program order: each stream's stages, then the stream.
    ///
    /// The state rule: a stream or stage is a state stream when its chain starts from an input that
    /// is not an action, or from a state stream, and no operator of the chain up to it flattens
    /// (`flatMap`, `flattenMap`, `concatMap`, `catch`): then, like a text field, it always has a
    /// latest value worth showing a new watcher. Streams of sources (`interval`, `just`), of
    /// actions, and the results of flattenings are event streams.
    public var summaries: [StreamSummary] {
        let actions = Set(inputs.filter { $0.kind == .action }.map(\.name))
        let valueInputs = Set(inputs.map(\.name)).subtracting(actions)
        let flattening: Set<String> = ["flatMap", "flattenMap", "concatMap", "catch", "if"]
        var state: [String: Bool] = [:]
        let definitions = Dictionary(streams.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        /// Whether the stream `name` is a state stream, resolving the streams it starts from first.
        func isState(_ name: String, visiting: Set<String> = []) -> Bool {
            if let known = state[name] { return known }
            if valueInputs.contains(name) { return true }
            guard let definition = definitions[name], !visiting.contains(name) else { return false }
            let (root, links) = definition.links
            var result = false
            if !links.contains(where: { flattening.contains($0.name) }) {
                switch root {
                case .name(let source, _): result = isState(source, visiting: visiting.union([name]))
                // A command's executing and enabled always have a current value.
                case .member(.name?, "executing", _), .member(.name?, "enabled", _): result = true
                default: break
                }
            }
            state[name] = result
            return result
        }
        let known = Set(inputs.map(\.name)).union(streams.map(\.name))
        var summaries: [StreamSummary] = []
        for stream in streams {
            let (root, links) = stream.links
            var rootState = false
            let source: String
            switch root {
            case .name(let name, _):
                source = name
                rootState = isState(name)
            case .call(.name(let name, _), _, _): source = name
            case .member(.name?, let member, _) where Builder.commandMembers.contains(member): source = "Command.\(member)"
            default: source = "value"
            }
            var previous: [String] = []
            root.collectNames(into: &previous, known: known)
            var flattened = false
            for (link, stage) in zip(links, stream.stageNames) {
                flattened = flattened || flattening.contains(link.name)
                var from = previous
                for argument in link.arguments { argument.value.collectNames(into: &from, known: known) }
                summaries.append(
                    StreamSummary(
                        name: stage,
                        operator: link.name,
                        from: from,
                        isState: rootState && !flattened,
                        line: link.nameRange.line,
                        column: link.nameRange.column,
                        stageOf: stream.name
                    )
                )
                previous = [stage]
            }
            var from = previous
            for argument in links.last?.arguments ?? [] { argument.value.collectNames(into: &from, known: known) }
            summaries.append(
                StreamSummary(
                    name: stream.name,
                    operator: links.last?.name ?? source,
                    from: from,
                    isState: isState(stream.name),
                    line: stream.range.line,
                    column: stream.range.column,
                    stageOf: nil
                )
            )
        }
        return summaries
    }
}

extension Expression {
    /// Appends the names in `known` that this expression uses, each once.
    func collectNames(into names: inout [String], known: Set<String>) {
        switch self {
        case .name(let name, _):
            if known.contains(name), !names.contains(name) { names.append(name) }
        case .interpolation(let parts, _):
            for case .expression(let part) in parts { part.collectNames(into: &names, known: known) }
        case .array(let elements, _):
            for element in elements { element.collectNames(into: &names, known: known) }
        case .dictionary(let entries, _):
            for entry in entries { entry.value.collectNames(into: &names, known: known) }
        case .member(let base, _, _):
            base?.collectNames(into: &names, known: known)
        case .call(let callee, let arguments, _):
            callee.collectNames(into: &names, known: known)
            for argument in arguments { argument.value.collectNames(into: &names, known: known) }
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
        case .block(let statements, _):
            for statement in statements { statement.collectNames(into: &names, known: known) }
        case .number, .duration, .string, .bool, .null, .parameter:
            break
        }
    }
}
