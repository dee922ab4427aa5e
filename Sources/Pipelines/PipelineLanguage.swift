/// The pipeline language's entry points: check a program's text and get its problems, or parse
/// it for the interpreter. See docs/PIPELINES.md.
public enum PipelineLanguage {
    /// The largest program accepted, in UTF-8 bytes.
    public static let maximumProgramBytes = 64 * 1024
    /// The most definitions (inputs and streams) a program may have.
    public static let maximumDefinitions = 200
    /// The most diagnostics reported for one program; a last one says how many more there were.
    public static let maximumDiagnostics = 100

    /// Every problem in `text`: syntax, names, cycles, limits, and unused inputs (warnings).
    /// Sorted by position (at most ``maximumDiagnostics``, then one saying how many more); empty
    /// when the program is fine. `hints` gives, for names other libraries use, the hint an
    /// unknown operator of that name gets (`debounce` → "`throttle` here: …"), ahead of a
    /// suggested spelling.
    public static func check(_ text: String, hints: [String: String] = [:]) -> [Diagnostic] {
        parse(text, hints: hints).diagnostics
    }

    /// The program in `text` and its problems (`hints` as for ``check(_:hints:)``). The program
    /// is usable only when no diagnostic is an error.
    public static func parse(_ text: String, hints: [String: String] = [:]) -> (program: Program, diagnostics: [Diagnostic]) {
        guard text.utf8.count <= maximumProgramBytes else {
            let diagnostic = Diagnostic(
                .error,
                "the program is \(text.utf8.count) bytes; at most \(maximumProgramBytes) are accepted",
                at: SourceRange(line: 1, column: 1, endColumn: 2)
            )
            return (Program(), [diagnostic])
        }
        let (program, syntax) = Parser.parse(text)
        var diagnostics = syntax
        let definitions = program.inputs.count + program.streams.count
        if definitions > maximumDefinitions {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "the program defines \(definitions) inputs and streams; at most \(maximumDefinitions) are accepted",
                    at: SourceRange(line: 1, column: 1, endColumn: 2)
                )
            )
        }
        diagnostics += Checker.check(program, hints: hints)
        diagnostics.sort { ($0.line, $0.column) < ($1.line, $1.column) }
        if diagnostics.count > maximumDiagnostics {
            let rest = diagnostics.count - maximumDiagnostics
            let last = diagnostics[maximumDiagnostics - 1]
            diagnostics.removeLast(rest)
            diagnostics.append(
                Diagnostic(
                    .error,
                    "\(rest) more problems are not listed",
                    at: SourceRange(line: last.line, column: last.column, endColumn: last.endColumn),
                    hint: "fix the ones above first"
                )
            )
        }
        return (program, diagnostics)
    }
}
