/// One token of a program, with where it is.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A name: a stream, an input, an operator, a label or a closure parameter.
        case identifier(String)
        /// `$0`, `$1`…: a closure's anonymous parameter.
        case dollar(Int)
        /// A number literal (values are doubles, as in JSON).
        case number(Double)
        /// A duration literal: a number with `ms`, `s` or `min` right after it (`0.5s`).
        case duration(milliseconds: Double)
        /// A string literal without interpolation.
        case string(String)
        /// The text of an interpolated string before its first `\(`.
        case interpolationStart(String)
        /// The text between one interpolation's `)` and the next `\(`.
        case interpolationMiddle(String)
        /// The text after the last interpolation, up to the closing quote.
        case interpolationEnd(String)
        /// An operator or punctuation: `(`, `)`, `{`, `}`, `[`, `]`, `.`, `,`, `:`, `=`, `?`, `!`,
        /// `&&`, `||`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `+`, `-`, `*`, `/`, `%`.
        case symbol(String)
        /// The end of a line (comments are dropped).
        case newline
        /// The end of the program.
        case end
    }

    let kind: Kind
    let range: SourceRange
}
