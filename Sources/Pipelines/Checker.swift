/// Checks a parsed program's names: each defined once and not reserved, every name used known
/// (with a suggestion when it looks misspelt), operators known, `$0` only inside closures, no
/// stream defined through itself, and every input used.
struct Checker {
    /// How many operators an event may pass through to reach a stream, counting through every
    /// stream it reads: it travels the whole chain as nested calls on the program's thread, so an
    /// unbounded chain of streams (each definition within its own limits) would exhaust the
    /// stack — 2,400 chained `map`s did in a debug build, taking the server down; 1,200 did not.
    /// More than any program needs, and well below that.
    static let maximumChainDepth = 512

    private let program: Program
    private(set) var diagnostics: [Diagnostic] = []
    /// Every input and stream, by name.
    private var defined: [String: SourceRange] = [:]
    /// For each stream, the streams and inputs its definition uses, in order of first use.
    private(set) var uses: [String: [String]] = [:]
    /// Every stream and input that any definition uses.
    private var usedAnywhere: Set<String> = []

    /// The hint of an unknown operator that another library names (``PipelineLanguage/check(_:hints:)``).
    private let hints: [String: String]

    init(_ program: Program, hints: [String: String] = [:]) {
        self.program = program
        self.hints = hints
    }

    static func check(_ program: Program, hints: [String: String] = [:]) -> [Diagnostic] {
        var checker = Checker(program, hints: hints)
        checker.run()
        return checker.diagnostics
    }

    private mutating func run() {
        let declarations = program.inputs.map { ($0.name, $0.range) } + program.streams.map { ($0.name, $0.range) }
        for (name, range) in declarations.sorted(by: { ($0.1.line, $0.1.column) < ($1.1.line, $1.1.column) }) {
            if Vocabulary.reserved.contains(name) {
                report("`\(name)` is a reserved name", at: range, hint: "choose another name for this stream or input")
            } else if let first = defined[name] {
                report("`\(name)` is already defined on line \(first.line)", at: range, hint: "give each stream and input its own name")
            } else {
                defined[name] = range
            }
        }
        for stream in program.streams {
            var used: [String] = []
            visit(stream.expression, closureParameters: nil, isStreamLevel: true, used: &used)
            // A name means its first definition; a duplicate is reported above, checked, not used.
            if defined[stream.name] == stream.range { uses[stream.name] = used }
            usedAnywhere.formUnion(used)
        }
        checkFeeds()
        checkConnects()
        let cycles = diagnostics.count
        reportCycles()
        if diagnostics.count == cycles {
            reportChainsTooDeep()
            reportPublishWithoutAutoconnect()
            diagnostics += SharingCheck(program: program, uses: uses).warnings()
        }
        diagnostics += PredicateCheck(program: program).warnings()
        for input in program.inputs where !usedAnywhere.contains(input.name) && defined[input.name] == input.range {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the input `\(input.name)` is not used by any stream",
                    at: input.range,
                    hint: "use it in a stream, or remove the line"
                )
            )
        }
    }

    /// Each `SOURCE.subscribe(SUBJECT)` line: its source's names, as a stream's, and a subject to
    /// feed (or a channel's terminal). What it reads counts as read by the subject, so that a
    /// subject fed from itself (`t = s.map { … }` then `t.subscribe(s)`) is a cycle like any other;
    /// a channel counts as one object, so a terminal fed from a reader of the same channel is one too.
    private mutating func checkFeeds() {
        for feed in program.feeds {
            var used: [String] = []
            visit(feed.source, closureParameters: nil, isStreamLevel: true, used: &used)
            usedAnywhere.formUnion(used)
            guard let range = defined[feed.subject] else {
                let hint = suggestion(for: feed.subject, among: Set(defined.keys))
                report(
                    "unknown subject `\(Checker.shortened(feed.subject))`",
                    at: feed.subjectRange,
                    hint: hint ?? "define it as `\(Checker.shortened(feed.subject)) = subject()`"
                )
                continue
            }
            let line = program.streams.first { $0.range == range }
            if let terminal = feed.terminal, line.map(Builder.isChannelLine) != true {
                report(
                    "`\(Checker.shortened(feed.subject))` is not a channel: `\(terminal)` is a channel's",
                    at: feed.subjectRange,
                    hint: "define it as `\(Checker.shortened(feed.subject)) = channel()`"
                )
                continue
            }
            if feed.terminal == nil, line.flatMap(Builder.subjectKind(of:)) == nil {
                report(
                    "`\(Checker.shortened(feed.subject))` is not a subject: `subscribe(…)` feeds one",
                    at: feed.subjectRange,
                    hint: "define it as `\(Checker.shortened(feed.subject)) = subject()` or `replaySubject(capacity: 1)`"
                )
                continue
            }
            for name in used where !(uses[feed.subject]?.contains(name) ?? false) { uses[feed.subject, default: []].append(name) }
        }
    }

    /// Each connect line names a connection; each connection line is connected by one, or its
    /// subscribers wait for ever — RAC's connection sends nothing before `connect`.
    private mutating func checkConnects() {
        for line in program.connects {
            usedAnywhere.insert(line.connection)
            if defined[line.connection] == nil {
                let hint = suggestion(for: line.connection, among: Set(defined.keys))
                report(
                    "unknown connection `\(Checker.shortened(line.connection))`",
                    at: line.connectionRange,
                    hint: hint ?? "define it as `\(Checker.shortened(line.connection)) = a.multicast(subject())`"
                )
            }
        }
        let connected = Set(program.connects.map(\.connection))
        for stream in program.streams where Builder.connectionKind(of: stream) != nil && !connected.contains(stream.name) {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "`\(Checker.shortened(stream.name))` is never connected: its subscribers get nothing until `\(Checker.shortened(stream.name)).connect()`",
                    at: stream.range,
                    hint: "add a line `\(Checker.shortened(stream.name)).connect()`, or `after(0.5s) { \(Checker.shortened(stream.name)).connect() }`"
                )
            )
        }
    }

    /// The parameters in scope inside a closure: its named ones, or `nil` if it uses `$0`….
    private typealias Scope = [String]

    private mutating func visit(_ expression: Expression, closureParameters: [Scope]?, isStreamLevel: Bool, used: inout [String]) {
        let inClosure = closureParameters != nil
        switch expression {
        case .number, .duration, .string, .bool, .null:
            break
        case .interpolation(let parts, _):
            for case .expression(let part) in parts {
                visit(part, closureParameters: closureParameters, isStreamLevel: false, used: &used)
            }
        case .array(let elements, _):
            for element in elements { visit(element, closureParameters: closureParameters, isStreamLevel: false, used: &used) }
        case .dictionary(let entries, _):
            for entry in entries { visit(entry.value, closureParameters: closureParameters, isStreamLevel: false, used: &used) }
        case .name(let name, let range):
            if closureParameters?.contains(where: { $0.contains(name) }) == true { return }
            if defined[name] != nil {
                if !used.contains(name) { used.append(name) }
            } else if !Vocabulary.sources.contains(name), !Vocabulary.schedulers.contains(name),  // `deliver(on: background)`
                !(inClosure && Vocabulary.blockWords.contains(name))  // a `createSignal` block's (the builder says where else it cannot be)
            {
                let known = Set(defined.keys).union(Vocabulary.sources).union((closureParameters ?? []).joined())
                let hint = ObjectiveCSpellings.classes[name] ?? suggestion(for: name, among: known)
                report("unknown name `\(Checker.shortened(name))`", at: range, hint: hint ?? "define it as an input or a stream")
            }
        case .parameter(_, let range):
            if !inClosure {
                report("`$0`, `$1`… can only be used inside a closure", at: range, hint: "write `{ $0 … }` where an operator takes a closure")
            }
        case .member(let base, let name, let range):
            guard let base else { return }  // `.latest` and the like: checked with the operator that takes it
            visit(base, closureParameters: closureParameters, isStreamLevel: isStreamLevel, used: &used)
            // `RACReplaySubject.replaySubjectWithCapacity(1)`: the class name's hint says it all.
            if case .name(let receiver, _) = base, ObjectiveCSpellings.classes[receiver] != nil, defined[receiver] == nil { return }
            // In a chain outside closures, every member is an operator; inside, it may be a field.
            if !inClosure && !Vocabulary.operators.contains(name) {
                let hint = hints[name] ?? ObjectiveCSpellings.selectors[name] ?? suggestion(for: name, among: Vocabulary.operators)
                report(
                    "unknown operator `\(Checker.shortened(name))`",
                    at: memberRange(range, name: name),
                    hint: hint ?? "docs/PIPELINES.md lists the operators"
                )
            }
        case .call(let callee, let arguments, _):
            visit(callee, closureParameters: closureParameters, isStreamLevel: isStreamLevel, used: &used)
            for argument in arguments {
                visit(argument.value, closureParameters: closureParameters, isStreamLevel: false, used: &used)
            }
        case .subscripted(let base, let index, _):
            visit(base, closureParameters: closureParameters, isStreamLevel: false, used: &used)
            visit(index, closureParameters: closureParameters, isStreamLevel: false, used: &used)
        case .unary(_, let operand, _):
            visit(operand, closureParameters: closureParameters, isStreamLevel: false, used: &used)
        case .binary(_, let left, let right, _):
            visit(left, closureParameters: closureParameters, isStreamLevel: false, used: &used)
            visit(right, closureParameters: closureParameters, isStreamLevel: false, used: &used)
        case .conditional(let condition, let whenTrue, let whenFalse, _):
            for part in [condition, whenTrue, whenFalse] {
                visit(part, closureParameters: closureParameters, isStreamLevel: false, used: &used)
            }
        case .closure(let parameters, let body, _):
            visit(body, closureParameters: (closureParameters ?? []) + [parameters], isStreamLevel: false, used: &used)
        case .block(let statements, _):
            for statement in statements { visit(statement, closureParameters: closureParameters, isStreamLevel: false, used: &used) }
        }
    }

    /// "did you mean `x`?" for a likely misspelling — for the first few problems only, and short
    /// names only: a hostile program with thousands of long unknown names must stay cheap to check.
    private func suggestion(for name: String, among candidates: Set<String>) -> String? {
        guard diagnostics.count < 50, name.utf8.count <= 40 else { return nil }
        return Vocabulary.suggestion(for: name, among: candidates).map { "did you mean `\($0)`?" }
    }

    /// `name`, cut to 40 characters for a message.
    static func shortened(_ name: String) -> String {
        name.count <= 40 ? name : name.prefix(39) + "…"
    }

    /// The range of a member's name: the end of the member expression.
    private func memberRange(_ range: SourceRange, name: String) -> SourceRange {
        let length = name.utf16.count
        return SourceRange(line: range.line, column: max(range.column, range.endColumn - length), endColumn: range.endColumn)
    }

    /// Reports each `publish()` that `autoconnect()` does not follow, and each `autoconnect()` that
    /// does not follow `publish()`: a published stream in the language is connected by its first
    /// subscriber (RAC's `[[signal publish] autoconnect]`), and has no other way to connect.
    private mutating func reportPublishWithoutAutoconnect() {
        for stream in program.streams {
            var connected: Set<SourceRange> = []
            var pending = [stream.expression]
            var found: [(name: String, range: SourceRange)] = []
            while let next = pending.popLast() {
                if case .member(let base?, let name, let range) = next {
                    if name == "autoconnect" {
                        if case .call(.member(_, "publish", let publishRange), _, _) = base {
                            connected.insert(publishRange)
                        } else {
                            found.append(("autoconnect", range))
                        }
                    } else if name == "publish" {
                        found.append(("publish", range))
                    }
                }
                pending.append(contentsOf: next.subexpressions)
            }
            for (name, range) in found where name == "autoconnect" || !connected.contains(range) {
                report(
                    name == "publish" ? "`publish()` is connected by `autoconnect()`" : "`autoconnect()` follows `publish()`",
                    at: memberRange(range, name: name),
                    hint: "write `publish().autoconnect()`, or `replayLazily()` to replay to later subscribers"
                )
            }
        }
    }

    /// Reports each cycle of streams defined through each other, once, at its first definition.
    private mutating func reportCycles() {
        // A name refers to its first definition: a stream named like an input above it is not a stream.
        let streams = Set(program.streams.filter { stream in defined[stream.name] == stream.range }.map(\.name))
        var finished: Set<String> = []
        var reported: Set<Set<String>> = []
        for stream in program.streams where !finished.contains(stream.name) {
            var path: [String] = []
            var onPath: Set<String> = []
            // Iterative depth-first search, so that a long chain of streams cannot exhaust the stack.
            var stack: [(name: String, next: Int)] = [(stream.name, 0)]
            path.append(stream.name)
            onPath.insert(stream.name)
            while let top = stack.last {
                let dependencies = (uses[top.name] ?? []).filter(streams.contains)
                if top.next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    let dependency = dependencies[top.next]
                    if onPath.contains(dependency) {
                        let cycle = Array(path[path.firstIndex(of: dependency)!...]) + [dependency]
                        if reported.insert(Set(cycle)).inserted, let range = defined[cycle[0]] {
                            report(
                                "`\(cycle[0])` is defined through itself: \(cycle.map { "`\($0)`" }.joined(separator: " → "))",
                                at: range,
                                hint: "a stream may use streams on any line, but not in a circle"
                            )
                        }
                    } else if !finished.contains(dependency) {
                        stack.append((dependency, 0))
                        path.append(dependency)
                        onPath.insert(dependency)
                    }
                } else {
                    stack.removeLast()
                    path.removeLast()
                    onPath.remove(top.name)
                    finished.insert(top.name)
                }
            }
        }
    }

    /// Reports each stream that makes a chain longer than ``maximumChainDepth`` where the streams
    /// it reads do not (so a chain too deep is reported once, where it crosses the limit). Runs
    /// only on a program without cycles.
    private mutating func reportChainsTooDeep() {
        let definitions = Dictionary(
            program.streams.filter { defined[$0.name] == $0.range }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var depths: [String: Int] = [:]
        for stream in program.streams where definitions[stream.name]?.range == stream.range {
            // Iterative post-order, so that a long chain of streams cannot exhaust the stack.
            var stack: [(name: String, next: Int)] = [(stream.name, 0)]
            while let top = stack.last {
                let dependencies = (uses[top.name] ?? []).filter { definitions[$0] != nil }
                if top.next < dependencies.count {
                    stack[stack.count - 1].next += 1
                    if depths[dependencies[top.next]] == nil { stack.append((dependencies[top.next], 0)) }
                    continue
                }
                stack.removeLast()
                guard depths[top.name] == nil, let definition = definitions[top.name] else { continue }
                let deepestRead = dependencies.compactMap { depths[$0] }.max() ?? 0
                let depth = deepestRead + Self.operatorDepth(of: definition.expression)
                depths[top.name] = depth
                if depth > Self.maximumChainDepth && deepestRead <= Self.maximumChainDepth {
                    report(
                        "`\(Checker.shortened(top.name))` is too deep: with the streams it reads, a chain of "
                            + "\(depth) operators (at most \(Self.maximumChainDepth))",
                        at: definition.range,
                        hint: "shorten the chain of streams that leads here"
                    )
                }
            }
        }
    }

    /// The most calls — operators, sources — nested in `expression`: a chained operator
    /// (`base.name(…)`) adds one to its base's. A bound on the operators an event passes through
    /// within one definition (calls inside closures count too: an overestimate, never an
    /// underestimate). The parser bounds the tree, so recursion is safe here.
    static func operatorDepth(of expression: Expression) -> Int {
        let own: Int
        if case .call = expression { own = 1 } else { own = 0 }
        return own + (expression.subexpressions.map { operatorDepth(of: $0) }.max() ?? 0)
    }

    private mutating func report(_ message: String, at range: SourceRange, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: range, hint: hint))
    }
}
