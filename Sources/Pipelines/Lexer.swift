/// Splits a program into tokens, with 1-based lines and UTF-16 columns. Problems (an unknown
/// character, an unterminated string) become diagnostics, and lexing goes on after them.
struct Lexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1  // UTF-16 column of `scalars[index]`
    private(set) var tokens: [Token] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// For each string interpolation being lexed, how many parentheses are open inside it: the
    /// `)` that brings it back to zero resumes the string.
    private var interpolations: [Int] = []

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Lexes the whole program.
    static func tokenize(_ text: String) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var lexer = Lexer(text)
        lexer.run()
        return (lexer.tokens, lexer.diagnostics)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int = 1) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        guard let scalar = current else { return }
        index += 1
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += scalar.utf16.count
        }
    }

    private mutating func emit(_ kind: Token.Kind, from start: Int) {
        tokens.append(Token(kind: kind, range: SourceRange(line: line, column: start, endColumn: column)))
    }

    private mutating func report(_ message: String, from start: Int, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: SourceRange(line: line, column: start, endColumn: column), hint: hint))
    }

    private mutating func run() {
        while let scalar = current {
            let start = column
            switch scalar {
            case " ", "\t", "\r":
                advance()
            case "\n":
                advance()
                tokens.append(Token(kind: .newline, range: SourceRange(line: line - 1, column: start, endColumn: start + 1)))
            case "/" where peek() == "/":
                while let next = current, next != "\n" { advance() }
            case "\"":
                advance()
                lexString(from: start, isStart: true)
            case "$":
                advance()
                var digits = ""
                while let next = current, next.properties.numericType == .decimal, next.isASCII {
                    digits.unicodeScalars.append(next)
                    advance()
                }
                if let number = Int(digits), digits.count <= 2 {
                    emit(.dollar(number), from: start)
                } else {
                    report("`$` must be followed by a parameter number, as in `$0`", from: start)
                }
            case _ where scalar.isASCII && scalar.properties.numericType == .decimal:
                lexNumber(from: start)
            case _ where scalar.isIdentifierStart:
                var name = ""
                while let next = current, next.isIdentifierContinuation {
                    name.unicodeScalars.append(next)
                    advance()
                }
                emit(.identifier(name), from: start)
            default:
                lexSymbol(scalar, from: start)
            }
        }
        if !interpolations.isEmpty {
            report("a string interpolation is not closed with `)`", from: column)
        }
        tokens.append(Token(kind: .end, range: SourceRange(line: line, column: column, endColumn: column + 1)))
    }

    private mutating func lexSymbol(_ scalar: Unicode.Scalar, from start: Int) {
        let pairs: Set<String> = ["&&", "||", "==", "!=", "<=", ">="]
        if let next = peek(), pairs.contains(String(scalar) + String(next)) {
            advance()
            advance()
            emit(.symbol(String(scalar) + String(next)), from: start)
            return
        }
        let singles: Set<Unicode.Scalar> = ["(", ")", "{", "}", "[", "]", ".", ",", ":", "=", "?", "!", "<", ">", "+", "-", "*", "/", "%", ";"]
        advance()
        guard singles.contains(scalar) else {
            report("unexpected character `\(scalar.escaped(asASCII: false))`", from: start)
            return
        }
        if scalar == "(", !interpolations.isEmpty { interpolations[interpolations.count - 1] += 1 }
        if scalar == ")", let depth = interpolations.last {
            if depth == 0 {
                // The end of an interpolation: the string goes on.
                interpolations.removeLast()
                lexString(from: start, isStart: false)
                return
            }
            interpolations[interpolations.count - 1] -= 1
        }
        emit(.symbol(String(scalar)), from: start)
    }

    private mutating func lexNumber(from start: Int) {
        var text = ""
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { $0.isASCII && $0.properties.numericType == .decimal } ?? false }
        while isDigit(current) {
            text.unicodeScalars.append(current!)
            advance()
        }
        if current == ".", isDigit(peek()) {
            text.append(".")
            advance()
            while isDigit(current) {
                text.unicodeScalars.append(current!)
                advance()
            }
        }
        var unit = ""
        while let next = current, next.isASCII, next.properties.isAlphabetic {
            unit.unicodeScalars.append(next)
            advance()
        }
        guard text.count <= 30, let value = Double(text), value.isFinite else {
            report("a number has at most 30 digits", from: start)
            return
        }
        switch unit {
        case "": emit(.number(value), from: start)
        case "ms": emit(.duration(milliseconds: value), from: start)
        case "s": emit(.duration(milliseconds: value * 1_000), from: start)
        case "min": emit(.duration(milliseconds: value * 60_000), from: start)
        default:
            report("unknown unit `\(Checker.shortened(unit))` after a number", from: start, hint: "durations are written `100ms`, `0.5s` or `2min`")
        }
    }

    /// Lexes string text up to the closing quote or the next `\(`; the opening quote (or the `)`
    /// that ended an interpolation) is already consumed.
    private mutating func lexString(from start: Int, isStart: Bool) {
        var text = ""
        while let scalar = current {
            switch scalar {
            case "\"":
                advance()
                emit(isStart ? .string(text) : .interpolationEnd(text), from: start)
                return
            case "\n":
                report("a string is not closed on its line", from: start, hint: "add `\"` at the end of the text")
                return
            case "\\":
                advance()
                guard let escaped = current else { continue }
                advance()
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "\"", "\\": text.unicodeScalars.append(escaped)
                case "(":
                    emit(isStart ? .interpolationStart(text) : .interpolationMiddle(text), from: start)
                    interpolations.append(0)
                    return
                default:
                    report("unknown escape `\\\(escaped)` in a string", from: column - 2, hint: "use `\\n`, `\\t`, `\\\"`, `\\\\` or `\\(…)`")
                }
            default:
                text.unicodeScalars.append(scalar)
                advance()
            }
        }
        report("a string is not closed", from: start, hint: "add `\"` at the end of the text")
    }
}

extension Unicode.Scalar {
    var isIdentifierStart: Bool { self == "_" || (isASCII && properties.isAlphabetic) }
    var isIdentifierContinuation: Bool { isIdentifierStart || (isASCII && properties.numericType == .decimal) }
}
