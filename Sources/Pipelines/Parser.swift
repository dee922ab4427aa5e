// The parser's lines: its state, a program's line structure (which newlines end a definition)
// and its two kinds of line, `input NAME: kind` and `NAME = EXPRESSION`, and the cursor over the
// tokens that every rule moves. The grammar of an expression, the bulk of docs/PIPELINES.md's
// grammar, is `ExpressionParser.swift`'s: a line knows where an expression starts, not its rules.

/// Parses a program's tokens into a ``Program``, reporting every problem it finds: a line with an
/// error is skipped to its end and parsing goes on with the next line, so one run reports one
/// diagnostic per broken line rather than just the first.
struct Parser {
    /// How deeply expressions may nest (brackets, closures, operators): a program nested deeper is
    /// refused with a diagnostic instead of exhausting the thread's stack.
    static let maximumDepth = 64
    /// How deep the syntax tree of one definition may grow: each operator of a chain and each
    /// operand of `a + b + c…` adds a level. Checking, interpreting and releasing the tree walk
    /// it recursively, so its depth is bounded too.
    static let maximumTreeDepth = 256

    private(set) var tokens: [Token]
    var position = 0
    var depth = 0
    var treeDepth = 0
    private(set) var diagnostics: [Diagnostic] = []

    /// A problem that ends the current line's parse.
    struct LineError: Error {}

    init(tokens: [Token]) {
        self.tokens = Parser.joinLines(tokens)
    }

    /// Parses `text`; lexing and parsing problems come back together, in source order.
    static func parse(_ text: String) -> (program: Program, diagnostics: [Diagnostic]) {
        let (tokens, lexical) = Lexer.tokenize(text)
        var parser = Parser(tokens: tokens)
        let program = parser.parseProgram()
        let all = (lexical + parser.diagnostics).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        return (program, all)
    }

    /// Drops the newlines that do not end a definition: those inside brackets, braces and
    /// parentheses (a closure may span lines), and those before a line that starts with `.` (it
    /// continues the chain above).
    static func joinLines(_ tokens: [Token]) -> [Token] {
        // For each token, the index of the next token that is not a newline (one backward pass, so
        // that thousands of blank lines cost no more than thousands of tokens).
        var nextSolid = Array(repeating: tokens.count - 1, count: tokens.count)
        var solid = tokens.count - 1
        for index in tokens.indices.reversed() {
            nextSolid[index] = solid
            if tokens[index].kind != .newline { solid = index }
        }
        /// Whether the line after the newline at `index` starts a definition (`NAME =` or
        /// `input NAME`): nothing inside a closure or a call can, so an unclosed bracket above it
        /// is a mistake of its own line, not a reason to swallow the rest of the program.
        func startsDefinition(after index: Int) -> Bool {
            let first = nextSolid[index]
            guard case .identifier(let name) = tokens[first].kind, first + 1 < tokens.count else { return false }
            if tokens[first + 1].kind == .symbol("=") { return true }
            if name == "input", case .identifier(let second) = tokens[first + 1].kind, second != "in" { return true }
            return false
        }
        var joined: [Token] = []
        var open = 0
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .symbol("("), .symbol("["), .symbol("{"), .interpolationStart: open += 1
            case .symbol(")"), .symbol("]"), .symbol("}"), .interpolationEnd: open = max(0, open - 1)
            case .newline:
                if startsDefinition(after: index) {
                    open = 0
                } else if open > 0 || tokens[nextSolid[index]].kind == .symbol(".") {
                    continue
                }
            default: break
            }
            joined.append(token)
        }
        return joined
    }

    // MARK: Lines

    var current: Token { tokens[position] }
    func peek(_ offset: Int = 1) -> Token { tokens[min(position + offset, tokens.count - 1)] }

    private mutating func parseProgram() -> Program {
        var program = Program()
        while current.kind != .end {
            if current.kind == .newline {
                position += 1
                continue
            }
            do {
                try parseLine(into: &program)
                if current.kind != .newline && current.kind != .end {
                    throw fail(
                        "unexpected \(describe(current)) after the end of the definition",
                        at: current.range,
                        hint: "put each definition on its own line; start a line with `.` to continue a chain"
                    )
                }
            } catch {
                // Skip to the end of the line and go on with the next one.
                while current.kind != .newline && current.kind != .end { position += 1 }
            }
        }
        return program
    }

    private mutating func parseLine(into program: inout Program) throws {
        if case .identifier("input") = current.kind, case .identifier = peek().kind {
            position += 1
            let (name, range) = try expectIdentifier("an input name")
            do {
                try expect(":", "after the input's name", hint: "write `input NAME: text` (or number, bool, action, choice(a, b))")
                program.inputs.append(InputDefinition(name: name, kind: try parseInputKind(), range: range))
            } catch {
                // Declared all the same (as text), so that the streams using it are not reported too.
                program.inputs.append(InputDefinition(name: name, kind: .text, range: range))
                throw error
            }
            return
        }
        // `a.subscribe(s)`, `marbles("-a|").subscribe(s)`, `conn.connect()`: a line that starts as an expression.
        if case .identifier = current.kind, peek().kind == .symbol(".") || peek().kind == .symbol("(") {
            try parseStatement(into: &program)
            return
        }
        let (name, range) = try expectIdentifier("a stream name or `input`")
        try expect("=", "after the stream's name", hint: "define a stream as `NAME = EXPRESSION`")
        program.streams.append(StreamDefinition(name: name, expression: try parseExpression(), range: range))
    }

    /// The lines that are statements, not definitions: `SOURCE.subscribe(SUBJECT)`,
    /// `CONNECTION.connect()` and `after(0.5s) { CONNECTION.connect() }`.
    private mutating func parseStatement(into program: inout Program) throws {
        let start = current.range
        let line = try parseExpression()
        switch line {
        case .call(.member(let source?, "subscribe", _), let arguments, _) where arguments.count == 1 && arguments[0].label == nil:
            switch arguments[0].value {
            case .name(let subject, let subjectRange):
                program.feeds.append(Feed(source: source, subject: subject, subjectRange: subjectRange, range: start))
                return
            case .member(.name(let channel, let channelRange)?, let terminal, _) where Builder.terminals.contains(terminal):
                program.feeds.append(Feed(source: source, subject: channel, subjectRange: channelRange, terminal: terminal, range: start))
                return
            default:
                break
            }
        case .call(.member(.name(let connection, let connectionRange)?, "connect", _), let arguments, _) where arguments.isEmpty:
            program.connects.append(Connect(connection: connection, connectionRange: connectionRange, delayMilliseconds: 0, range: start))
            return
        case .call(.name(Vocabulary.afterBlock, _), let arguments, let range):
            guard arguments.count == 2, arguments.allSatisfy({ $0.label == nil }),
                case .duration(let milliseconds, _) = arguments[0].value, milliseconds <= Self.longestConnectDelay,
                case .closure([], .call(.member(.name(let connection, let connectionRange)?, "connect", _), [], _), _) = arguments[1].value
            else {
                throw fail(
                    "a line's `after` connects a connection later, up to an hour after the start: `after(0.5s) { conn.connect() }`",
                    at: range,
                    hint: "inside `createSignal`'s block, `after` schedules the subscriber's lines"
                )
            }
            program.connects.append(
                Connect(connection: connection, connectionRange: connectionRange, delayMilliseconds: milliseconds, range: start)
            )
            return
        default:
            break
        }
        throw fail(
            "a line defines a stream (`NAME = …`), declares an input, feeds a subject (`a.subscribe(s)`) or connects a connection (`conn.connect()`)",
            at: start,
            hint: "define a stream as `NAME = EXPRESSION`"
        )
    }

    /// The latest a line's `after` may connect: an hour, a virtual session's whole clock.
    static let longestConnectDelay: Double = 3_600_000

    private mutating func parseInputKind() throws -> InputKind {
        let (kind, range) = try expectIdentifier("an input kind")
        switch kind {
        case "text": return .text
        case "number": return .number
        case "bool": return .bool
        case "action": return .action
        case "choice":
            try expect("(", "after `choice`", hint: "list the choices: `choice(slow, fast)`")
            var choices: [String] = []
            repeat {
                choices.append(try expectIdentifier("a choice (a bare name)").name)
            } while accept(",")
            try expect(")", "after the choices")
            return .choice(choices)
        default:
            throw fail("unknown input kind `\(Checker.shortened(kind))`", at: range, hint: "use text, number, bool, action or choice(a, b, …)")
        }
    }

    // MARK: Tokens

    mutating func accept(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    mutating func expect(_ symbol: String, _ context: String, hint: String? = nil) throws {
        guard accept(symbol) else {
            throw fail("expected `\(symbol)` \(context), found \(describe(current))", at: current.range, hint: hint)
        }
    }

    mutating func expectIdentifier(_ what: String) throws -> (name: String, range: SourceRange) {
        guard case .identifier(let name) = current.kind else {
            throw fail("expected \(what), found \(describe(current))", at: current.range)
        }
        position += 1
        return (name, tokens[position - 1].range)
    }

    mutating func fail(_ message: String, at range: SourceRange, hint: String? = nil) -> LineError {
        diagnostics.append(Diagnostic(.error, message, at: range, hint: hint))
        return LineError()
    }

    func describe(_ token: Token) -> String {
        switch token.kind {
        case .identifier(let name): "`\(Checker.shortened(name))`"
        case .dollar(let index): "`$\(index)`"
        case .number, .duration: "a number"
        case .string, .interpolationStart, .interpolationMiddle, .interpolationEnd: "a string"
        case .symbol(let symbol): "`\(symbol)`"
        case .newline: "the end of the line"
        case .end: "the end of the program"
        }
    }
}
