/// A parsed program: its input declarations and stream definitions, in source order.
public struct Program: Sendable, Equatable {
    /// `input NAME: KIND` lines.
    public var inputs: [InputDefinition] = []
    /// `NAME = EXPRESSION` lines (a chain continued on later lines is one definition).
    public var streams: [StreamDefinition] = []
    /// `SOURCE.subscribe(SUBJECT)` lines, in order.
    public var feeds: [Feed] = []
    /// `CONNECTION.connect()` and `after(…) { CONNECTION.connect() }` lines, in order.
    public var connects: [Connect] = []
}

/// `CONNECTION.connect()`, RAC's `[connection connect]`: subscribes a multicast connection's
/// subject to its source, once; or `after(0.5s) { CONNECTION.connect() }`, the same later on the
/// session's scheduler (`[scheduler afterDelay:schedule:]`). The session runs it when the
/// program starts, in line order with the streams it watches and the feeding lines.
public struct Connect: Sendable, Equatable {
    /// The connection: a stream defined as `SOURCE.multicast(SUBJECT)`.
    public var connection: String
    /// Where the connection's name is.
    public var connectionRange: SourceRange
    /// How long after the start it connects, in milliseconds (0: at once).
    public var delayMilliseconds: Double
    /// Where the line is (its first token).
    public var range: SourceRange
}

/// `SOURCE.subscribe(SUBJECT)`: a line that feeds a subject from a stream, RAC's
/// `[signal subscribe:subject]`. The session subscribes it when the program starts, in line order
/// with the streams it watches.
public struct Feed: Sendable, Equatable {
    /// The signal subscribed: any stream expression.
    public var source: Expression
    /// The subject it sends into: a stream defined as `subject()` or `replaySubject(…)`, or the
    /// channel whose ``terminal`` it is.
    public var subject: String
    /// Where the subject's name is.
    public var subjectRange: SourceRange
    /// `leadingTerminal` or `followingTerminal` when it feeds a channel's terminal
    /// (`a.subscribe(ch.leadingTerminal)`), else `nil`.
    public var terminal: String? = nil
    /// Where the line is (its first token).
    public var range: SourceRange
}

/// The kinds of input a program may declare: the scenarios' kinds.
public enum InputKind: Sendable, Equatable {
    case text, number, bool, action
    /// One of a fixed set of bare identifiers.
    case choice([String])
}

/// `input NAME: KIND`.
public struct InputDefinition: Sendable, Equatable {
    public var name: String
    public var kind: InputKind
    /// Where the name is.
    public var range: SourceRange
}

/// `NAME = EXPRESSION`.
public struct StreamDefinition: Sendable, Equatable {
    public var name: String
    public var expression: Expression
    /// Where the name is.
    public var range: SourceRange
}

/// An argument of a call: `label: value` or just `value`.
public struct Argument: Sendable, Equatable {
    public var label: String?
    public var value: Expression
}

/// An expression of the language: what defines a stream, and what a closure computes.
public indirect enum Expression: Sendable, Equatable {
    case number(Double, SourceRange)
    case duration(milliseconds: Double, SourceRange)
    case string(String, SourceRange)
    /// An interpolated string: literal text and expressions, in order.
    case interpolation([InterpolationPart], SourceRange)
    case bool(Bool, SourceRange)
    case null(SourceRange)
    case array([Expression], SourceRange)
    /// `[key: value, …]` (`[:]` when empty): a JSON object.
    case dictionary([DictionaryEntry], SourceRange)
    /// A name: a stream, an input, a source or a closure parameter.
    case name(String, SourceRange)
    /// `$0`, `$1`…
    case parameter(Int, SourceRange)
    /// `base.name`, or `.name` alone (an implicit member such as `.latest`) when `base` is nil.
    case member(base: Expression?, name: String, SourceRange)
    /// `callee(arguments) { trailing closure }`.
    case call(callee: Expression, arguments: [Argument], SourceRange)
    case subscripted(base: Expression, index: Expression, SourceRange)
    /// `!x`, `-x`.
    case unary(String, Expression, SourceRange)
    case binary(String, Expression, Expression, SourceRange)
    case conditional(Expression, Expression, Expression, SourceRange)
    /// `{ a, b in body }` or `{ body }` (then `$0`… name the parameters).
    case closure(parameters: [String], body: Expression, SourceRange)
    /// Several lines (or `;`-separated statements) of a closure's body, in order: only
    /// `createSignal`'s block and the `after` blocks inside it run lines (docs/PIPELINES.md).
    case block([Expression], SourceRange)

    /// Where the expression is (its first line, when it spans several).
    public var range: SourceRange {
        switch self {
        case .number(_, let range), .duration(_, let range), .string(_, let range), .interpolation(_, let range),
            .bool(_, let range), .null(let range), .array(_, let range), .dictionary(_, let range),
            .name(_, let range), .parameter(_, let range), .member(_, _, let range), .call(_, _, let range),
            .subscripted(_, _, let range), .unary(_, _, let range), .binary(_, _, _, let range),
            .conditional(_, _, _, let range), .closure(_, _, let range), .block(_, let range):
            range
        }
    }
}

/// `key: value` in a dictionary literal.
public struct DictionaryEntry: Sendable, Equatable {
    public var key: String
    public var value: Expression
}

/// A piece of an interpolated string.
public enum InterpolationPart: Sendable, Equatable {
    case text(String)
    case expression(Expression)
}
