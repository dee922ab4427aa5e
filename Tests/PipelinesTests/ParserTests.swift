import Testing

@testable import Pipelines

/// The pipeline language's grammar (docs/PIPELINES.md): what parses, into what, and where each
/// problem is reported (1-based lines, UTF-16 columns, exclusive end).
@Suite("Pipeline language: parsing")
struct ParserTests {
    func parse(_ text: String) -> (program: Program, diagnostics: [Diagnostic]) { Parser.parse(text) }

    func errors(_ text: String) -> [Diagnostic] { PipelineLanguage.check(text).filter { $0.severity == .error } }

    @Test func inputsOfEveryKind() {
        let (program, diagnostics) = parse(
            """
            input query: text
            input limit: number
            input live: bool
            input go: action
            input speed: choice(slow, fast)
            """
        )
        #expect(diagnostics.isEmpty)
        #expect(program.inputs.map(\.name) == ["query", "limit", "live", "go", "speed"])
        #expect(program.inputs.map(\.kind) == [.text, .number, .bool, .action, .choice(["slow", "fast"])])
        #expect(program.inputs[4].range == SourceRange(line: 5, column: 7, endColumn: 12))
    }

    @Test func aChainWithClosuresLabelsAndDurations() {
        let (program, diagnostics) = parse("results = query.filter { $0.count > 2 }.throttle(0.5s).flatMap(.latest) { search($0) }")
        #expect(diagnostics.isEmpty)
        guard case .call(let callee, let arguments, _) = program.streams.first?.expression else {
            Issue.record("not a call: \(program)")
            return
        }
        guard case .member(_, "flatMap", _) = callee else {
            Issue.record("the last operator is not flatMap: \(callee)")
            return
        }
        #expect(arguments.count == 2, "the implicit member and the trailing closure")
        #expect(arguments.first?.value == .member(base: nil, name: "latest", SourceRange(line: 1, column: 64, endColumn: 71)))
    }

    @Test func durationsAreMilliseconds() {
        let (program, _) = parse("a = interval(1.5s)\nb = interval(250ms)\nc = interval(2min)")
        let values = program.streams.compactMap { stream -> Double? in
            guard case .call(_, let arguments, _) = stream.expression, case .duration(let ms, _) = arguments.first?.value else { return nil }
            return ms
        }
        #expect(values == [1_500, 250, 120_000])
    }

    @Test func aLineStartingWithADotContinuesTheChainAndClosuresSpanLines() {
        let (program, diagnostics) = parse(
            """
            input query: text
            valid = query
                .filter { text in
                    text.count > 2
                }
                // a comment between the lines of a chain
                .distinctUntilChanged()

            shown = valid.map { "\\($0)!" }
            """
        )
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(program.streams.map(\.name) == ["valid", "shown"])
    }

    @Test func expressionsFollowSwiftsPrecedence() {
        let (program, _) = parse("x = just(1 + 2 * 3 == 7 && !false ? [1, 2][0] : -1)")
        guard case .call(_, let arguments, _) = program.streams[0].expression,
            case .conditional(let condition, _, let whenFalse, _) = arguments[0].value,
            case .binary("&&", let left, _, _) = condition,
            case .binary("==", let sum, _, _) = left,
            case .binary("+", _, .binary("*", _, _, _), _) = sum,
            case .unary("-", .number(1, _), _) = whenFalse
        else {
            Issue.record("\(program.streams[0].expression)")
            return
        }
    }

    @Test func literalsOfEveryKind() {
        let (program, diagnostics) = parse(#"x = just(["a": 1, "b": [true, nil, "s\n"], c: "\(2 + 3) items"])"#)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard case .call(_, let arguments, _) = program.streams[0].expression,
            case .dictionary(let entries, _) = arguments[0].value
        else {
            Issue.record("\(program)")
            return
        }
        #expect(entries.map(\.key) == ["a", "b", "c"])
        guard case .interpolation(let parts, _) = entries[2].value else {
            Issue.record("not an interpolation: \(entries[2].value)")
            return
        }
        #expect(parts.count == 2)
        #expect(parts.last == .text(" items"))
    }

    @Test func columnsAreCountedInUTF16CodeUnits() {
        // "é" is one UTF-16 unit, "😀" two: the unknown character after them is at column 12.
        let diagnostics = errors("x = just(\"é😀\") #")
        #expect(diagnostics.first?.column == 17, "\(diagnostics)")
        #expect(diagnostics.first?.message == "unexpected character `#`")
    }

    @Test func everyBrokenLineIsReportedNotJustTheFirst() {
        let diagnostics = errors(
            """
            input q: txt
            a = q.map { $0 +
            b = q.filter(
            c = q.map { $0 } )
            """
        )
        #expect(diagnostics.map(\.line) == [1, 2, 3, 4], "\(diagnostics)")
        #expect(diagnostics[0].message == "unknown input kind `txt`")
        #expect(diagnostics[0].column == 10 && diagnostics[0].endColumn == 13)
    }

    @Test func syntaxErrorsSayWhatWasExpected() {
        #expect(errors("a query.map { $0 }").first?.message == "expected `=` after the stream's name, found `query`")
        #expect(errors("a = ").first?.message == "expected an expression, found the end of the program")
        #expect(errors("a = just(1, )").first?.message == "expected an expression, found `)`")
        #expect(errors("a = just(\"open").first?.message == "a string is not closed")
        #expect(errors("a = just(3 parsecs)").first?.message == "expected `)` after the arguments, found `parsecs`")
        #expect(errors("a = interval(3h)").first?.message == "unknown unit `h` after a number")
        #expect(errors("a = just(1) just(2)").first?.message == "unexpected `just` after the end of the definition")
        #expect(errors("a = just(\"\\q\")").first?.message == "unknown escape `\\q` in a string")
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() {
        let nested = "a = just(" + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000) + ")"
        #expect(errors(nested).first?.message.hasPrefix("the expression is nested too deeply") == true)
        let chained = "a = just(1)" + String(repeating: ".map { $0 }", count: 2_000)
        #expect(errors(chained).first?.message.hasPrefix("the definition is too long or too deeply nested") == true)
        let summed = "a = just(" + Array(repeating: "1", count: 5_000).joined(separator: " + ") + ")"
        #expect(errors(summed).first?.message.hasPrefix("the definition is too long or too deeply nested") == true)
        let negated = "a = just(" + String(repeating: "!", count: 5_000) + "true)"
        #expect(errors(negated).first?.message.hasPrefix("the expression is nested too deeply") == true)
    }

    @Test func anUnclosedBracketDoesNotSwallowTheLinesAfterIt() {
        let diagnostics = errors("input q: text\na = q.map {\nb = q.filter { $0 == \"x\" }\nc = q.map { $0 }.wrong()")
        #expect(diagnostics.map(\.line) == [2, 4], "\(diagnostics)")
    }
}
