/// Parses a program's tokens into a ``Program``, reporting every problem it finds: a line with an
/// error is skipped to its end and parsing goes on with the next line, so one run reports one
/// diagnostic per broken line rather than just the first. (Over 400 lines, and one job: the
/// grammar of docs/PIPELINES.md, one recursive-descent function per rule, reads best in one place.)
struct Parser {
    /// How deeply expressions may nest (brackets, closures, operators): a program nested deeper is
    /// refused with a diagnostic instead of exhausting the thread's stack.
    static let maximumDepth = 64
    /// How deep the syntax tree of one definition may grow: each operator of a chain and each
    /// operand of `a + b + c…` adds a level. Checking, interpreting and releasing the tree walk
    /// it recursively, so its depth is bounded too.
    static let maximumTreeDepth = 256

    private var tokens: [Token]
    private var position = 0
    private var depth = 0
    private var treeDepth = 0
    private(set) var diagnostics: [Diagnostic] = []

    /// A problem that ends the current line's parse.
    private struct LineError: Error {}

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

    private var current: Token { tokens[position] }
    private func peek(_ offset: Int = 1) -> Token { tokens[min(position + offset, tokens.count - 1)] }

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
        let (name, range) = try expectIdentifier("a stream name or `input`")
        try expect("=", "after the stream's name", hint: "define a stream as `NAME = EXPRESSION`")
        program.streams.append(StreamDefinition(name: name, expression: try parseExpression(), range: range))
    }

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

    // MARK: Expressions, loosest binding first

    mutating func parseExpression() throws -> Expression {
        try nested { parser in
            let condition = try parser.parseBinary(level: 0)
            guard parser.accept("?") else { return condition }
            let whenTrue = try parser.parseExpression()
            try parser.expect(":", "between the two results of `? :`")
            let whenFalse = try parser.parseExpression()
            return .conditional(condition, whenTrue, whenFalse, condition.range.through(whenFalse.range))
        }
    }

    /// `body` one level deeper in both the expression and the definition's tree, refused past
    /// either limit (a stack overflow otherwise).
    private mutating func nested<Result>(_ body: (inout Parser) throws -> Result) throws -> Result {
        depth += 1
        treeDepth += 1
        defer {
            depth -= 1
            treeDepth -= 1
        }
        try checkDepth()
        return try body(&self)
    }

    /// Binary operators by precedence, loosest first.
    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func parseBinary(level: Int) throws -> Expression {
        guard level < Parser.levels.count else { return try parseUnary() }
        var left = try parseBinary(level: level + 1)
        let outerTreeDepth = treeDepth
        defer { treeDepth = outerTreeDepth }
        while case .symbol(let symbol) = current.kind, Parser.levels[level].contains(symbol) {
            try deepenTree()
            position += 1
            let right = try parseBinary(level: level + 1)
            left = .binary(symbol, left, right, left.range.through(right.range))
        }
        return left
    }

    private mutating func parseUnary() throws -> Expression {
        let start = current.range
        if accept("!") || accept("-") {
            guard case .symbol(let symbol) = tokens[position - 1].kind else { throw LineError() }
            let operand = try nested { try $0.parseUnary() }
            return .unary(symbol, operand, start.through(operand.range))
        }
        return try parsePostfix(try parsePrimary())
    }

    private mutating func parsePostfix(_ base: Expression) throws -> Expression {
        var expression = base
        let outerTreeDepth = treeDepth
        defer { treeDepth = outerTreeDepth }
        while true {
            if case .symbol(let symbol) = current.kind, [".", "(", "{", "["].contains(symbol) { try deepenTree() }
            switch current.kind {
            case .symbol("."):
                let dot = current.range
                position += 1
                let (name, range) = try expectIdentifier("a member or operator name after `.`")
                // The member's range is its own `.name`, which may be lines below its base.
                expression = .member(base: expression, name: name, dot.through(range))
            case .symbol("("):
                let arguments = try parseArguments()
                expression = .call(callee: expression, arguments: arguments, expression.range.through(tokens[position - 1].range))
                if case .symbol("{") = current.kind { expression = try appendTrailingClosure(to: expression) }
            case .symbol("{"):
                guard expression.acceptsTrailingClosure else { return expression }
                expression = try appendTrailingClosure(to: expression)
            case .symbol("["):
                position += 1
                let index = try parseExpression()
                try expect("]", "after the index")
                expression = .subscripted(base: expression, index: index, expression.range.through(tokens[position - 1].range))
            default:
                return expression
            }
        }
    }

    private mutating func appendTrailingClosure(to expression: Expression) throws -> Expression {
        let closure = try parseClosure()
        let argument = Argument(label: nil, value: closure)
        if case .call(let callee, let arguments, let range) = expression {
            return .call(callee: callee, arguments: arguments + [argument], range.through(closure.range))
        }
        return .call(callee: expression, arguments: [argument], expression.range.through(closure.range))
    }

    private mutating func parseArguments() throws -> [Argument] {
        try expect("(", "before the arguments")
        var arguments: [Argument] = []
        if accept(")") { return arguments }
        repeat {
            var label: String?
            if case .identifier(let name) = current.kind, peek().kind == .symbol(":") {
                label = name
                position += 2
            }
            arguments.append(Argument(label: label, value: try parseExpression()))
        } while accept(",")
        try expect(")", "after the arguments", hint: "separate arguments with `,`")
        return arguments
    }

    private mutating func parsePrimary() throws -> Expression {
        let token = current
        switch token.kind {
        case .number(let value):
            position += 1
            return .number(value, token.range)
        case .duration(let milliseconds):
            position += 1
            return .duration(milliseconds: milliseconds, token.range)
        case .string(let text):
            position += 1
            return .string(text, token.range)
        case .interpolationStart(let text):
            return try parseInterpolation(startingWith: text)
        case .dollar(let index):
            position += 1
            return .parameter(index, token.range)
        case .identifier("true"), .identifier("false"):
            position += 1
            return .bool(token.kind == .identifier("true"), token.range)
        case .identifier("nil"), .identifier("null"):
            position += 1
            return .null(token.range)
        case .identifier(let name):
            position += 1
            return .name(name, token.range)
        case .symbol("."):
            position += 1
            let (name, range) = try expectIdentifier("a name after `.`")
            return .member(base: nil, name: name, token.range.through(range))
        case .symbol("("):
            position += 1
            let inner = try parseExpression()
            try expect(")", "to close `(`")
            return inner
        case .symbol("["):
            return try parseCollection()
        case .symbol("{"):
            return try parseClosure()
        default:
            throw fail("expected an expression, found \(describe(token))", at: token.range)
        }
    }

    private mutating func parseInterpolation(startingWith text: String) throws -> Expression {
        let start = current.range
        position += 1
        var parts: [InterpolationPart] = text.isEmpty ? [] : [.text(text)]
        while true {
            parts.append(.expression(try parseExpression()))
            switch current.kind {
            case .interpolationMiddle(let text):
                position += 1
                if !text.isEmpty { parts.append(.text(text)) }
            case .interpolationEnd(let text):
                position += 1
                if !text.isEmpty { parts.append(.text(text)) }
                return .interpolation(parts, start.through(tokens[position - 1].range))
            default:
                throw fail("expected `)` to end the interpolation, found \(describe(current))", at: current.range)
            }
        }
    }

    /// `[a, b]`, `[:]` or `["key": value, …]`.
    private mutating func parseCollection() throws -> Expression {
        let start = current.range
        position += 1
        if accept(":") {
            try expect("]", "after `[:`")
            return .dictionary([], start.through(tokens[position - 1].range))
        }
        if accept("]") { return .array([], start.through(tokens[position - 1].range)) }
        let isDictionary: Bool
        switch (current.kind, peek().kind) {
        case (.string, .symbol(":")), (.identifier, .symbol(":")): isDictionary = true
        default: isDictionary = false
        }
        if isDictionary {
            var entries: [DictionaryEntry] = []
            repeat {
                let key: String
                switch current.kind {
                case .string(let text), .identifier(let text): key = text
                default: throw fail("expected a key (a string), found \(describe(current))", at: current.range)
                }
                position += 1
                try expect(":", "after the key")
                entries.append(DictionaryEntry(key: key, value: try parseExpression()))
            } while accept(",") && current.kind != .symbol("]")
            try expect("]", "to close the dictionary")
            return .dictionary(entries, start.through(tokens[position - 1].range))
        }
        var elements: [Expression] = []
        repeat {
            elements.append(try parseExpression())
        } while accept(",") && current.kind != .symbol("]")
        try expect("]", "to close the array")
        return .array(elements, start.through(tokens[position - 1].range))
    }

    /// `{ a, b in body }` or `{ body }`.
    private mutating func parseClosure() throws -> Expression {
        let start = current.range
        try expect("{", "to open a closure")
        var parameters: [String] = []
        var lookahead = position
        var names: [String] = []
        while case .identifier(let name) = tokens[lookahead].kind {
            names.append(name)
            lookahead += 1
            if tokens[lookahead].kind == .identifier("in") {
                parameters = names
                position = lookahead + 1
                break
            }
            guard tokens[lookahead].kind == .symbol(",") else { break }
            lookahead += 1
        }
        let body = try parseExpression()
        try expect("}", "to close the closure", hint: "a closure is one expression: `{ $0 * 2 }` or `{ a, b in a + b }`")
        return .closure(parameters: parameters, body: body, start.through(tokens[position - 1].range))
    }

    /// One more level in the tree of the current definition.
    private mutating func deepenTree() throws {
        treeDepth += 1
        try checkDepth()
    }

    private mutating func checkDepth() throws {
        if depth > Parser.maximumDepth {
            throw fail("the expression is nested too deeply (more than \(Parser.maximumDepth) levels)", at: current.range)
        }
        if treeDepth > Parser.maximumTreeDepth {
            throw fail(
                "the definition is too long or too deeply nested (a tree of more than \(Parser.maximumTreeDepth) levels)",
                at: current.range,
                hint: "split it into several named streams"
            )
        }
    }

    // MARK: Tokens

    private mutating func accept(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String, _ context: String, hint: String? = nil) throws {
        guard accept(symbol) else {
            throw fail("expected `\(symbol)` \(context), found \(describe(current))", at: current.range, hint: hint)
        }
    }

    private mutating func expectIdentifier(_ what: String) throws -> (name: String, range: SourceRange) {
        guard case .identifier(let name) = current.kind else {
            throw fail("expected \(what), found \(describe(current))", at: current.range)
        }
        position += 1
        return (name, tokens[position - 1].range)
    }

    private mutating func fail(_ message: String, at range: SourceRange, hint: String? = nil) -> LineError {
        diagnostics.append(Diagnostic(.error, message, at: range, hint: hint))
        return LineError()
    }

    private func describe(_ token: Token) -> String {
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

extension Expression {
    /// Whether a `{` right after this expression is its trailing closure (`filter { … }`), as
    /// after a name, a member or a call — not after a literal.
    var acceptsTrailingClosure: Bool {
        switch self {
        case .name, .member, .call: true
        default: false
        }
    }
}
