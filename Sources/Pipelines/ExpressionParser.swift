// The grammar of an expression, docs/PIPELINES.md's, one recursive-descent function per rule,
// loosest binding first, with the depth limits that keep a nested program from exhausting the
// stack. Apart from the lines (`Parser.swift`) because an expression is a job of its own: every
// rule but a line's start is here, and no rule here knows what a line is.

extension Parser {
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
        // `[RACSubject subject]`: Objective-C's message send, as the posts write RAC.
        if case .identifier(let receiver) = current.kind, case .identifier(let message) = peek().kind {
            throw fail(
                "`[\(Checker.shortened(receiver)) \(Checker.shortened(message))]` is Objective-C's message send; the language writes RAC as Swift",
                at: start,
                hint: ObjectiveCSpellings.messageSendHint(receiver: receiver, message: message)
            )
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
        // `{ }`: a block of no lines (`disposable { }`); an operator's closure refuses it.
        if accept("}") { return .closure(parameters: parameters, body: .block([], start), start.through(tokens[position - 1].range)) }
        // Lines of a block: the newlines inside braces are joined away, so a statement ends where
        // the next cannot continue it (or at `;`). One statement is the body itself.
        var statements = [try parseExpression()]
        while current.kind != .symbol("}") && current.kind != .end {
            if accept(";") {
                if current.kind == .symbol("}") { break }
            } else if case .identifier = current.kind {
            } else {
                break
            }
            statements.append(try parseExpression())
        }
        let body = statements.count == 1 ? statements[0] : .block(statements, statements[0].range)
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
