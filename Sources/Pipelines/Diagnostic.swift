/// A place in a program: 1-based line and columns, columns counted in UTF-16 code units (what a
/// browser's editor counts), `endColumn` exclusive. A range never spans lines: one that would is
/// cut at the end of its first line.
public struct SourceRange: Sendable, Hashable, Codable {
    /// The line, from 1.
    public var line: Int
    /// The first column, from 1.
    public var column: Int
    /// The column just after the last one.
    public var endColumn: Int

    /// Creates a range on one line.
    public init(line: Int, column: Int, endColumn: Int) {
        self.line = line
        self.column = column
        self.endColumn = max(endColumn, column + 1)
    }

    /// The range from the start of `self` to the end of `other`, when both are on one line;
    /// otherwise `self` to the end of what it covers.
    func through(_ other: SourceRange) -> SourceRange {
        other.line == line ? SourceRange(line: line, column: column, endColumn: max(endColumn, other.endColumn)) : self
    }
}

/// A problem found in a program, with where it is and, when one helps, how to fix it.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Codable {
        /// The program cannot run.
        case error
        /// The program runs, but probably not as meant (an input no stream uses, say).
        case warning
    }

    /// Whether the program can run.
    public var severity: Severity
    /// The 1-based line.
    public var line: Int
    /// The 1-based first column, in UTF-16 code units.
    public var column: Int
    /// The column after the last one (exclusive).
    public var endColumn: Int
    /// What is wrong, in a sentence.
    public var message: String
    /// How to fix it, when there is a likely fix ("did you mean `throttle`?").
    public var hint: String?

    /// Creates a diagnostic covering `range`.
    public init(_ severity: Severity, _ message: String, at range: SourceRange, hint: String? = nil) {
        self.severity = severity
        line = range.line
        column = range.column
        endColumn = range.endColumn
        self.message = message
        self.hint = hint
    }
}
