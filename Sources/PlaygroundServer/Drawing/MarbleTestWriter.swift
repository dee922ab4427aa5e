import Foundation
import MarbleNotation
import MicroHTTP
import Pipelines
import Scenarios

/// "Copy as a test" (`POST /api/marbles/test`): a marble program and its run written as a
/// complete Swift Testing test. The test runs the same program with `ProgramMarbles` (the
/// `Pipelines` library, on `Reactive`) and states each stream with `ReactiveTesting`: its events as
/// a marble diagram with the values of its letters, each input row's subscriptions as
/// subscription marbles. The expectations are what the server's run gave, so the test says what
/// the diagram on the page shows.
enum MarbleTestWriter {
    /// Why a program cannot be written as a test.
    enum Refusal: Error {
        case program(ProgramRefusal)
        case truncated(String)
        case unknownStream(String)

        var response: HTTPResponse {
            switch self {
            case .program(let refusal): API.programInvalid(refusal)
            case .truncated(let message):
                PlaygroundError(.notTestable, "The run was cut short: \(message) A test states a whole run.").response
            case .unknownStream(let name):
                PlaygroundError(.invalidValue, "The program has no stream `\(name)` to state.").response
            }
        }
    }

    /// The streams a test states by default: every named stream of the program.
    /// `streams` narrows them (a gallery entry's outputs); `name` is the test's function name.
    static func write(
        _ text: String,
        name: String,
        title: String?,
        streams wanted: [String]?,
        limits: StepBudget.Limits = .standard
    ) -> Result<String, Refusal> {
        let answer: ProgramDrawing.Answer
        switch ProgramDrawing.run(text, until: nil, rules: ProgramRules(limits: limits)) {
        case .failure(let refusal): return .failure(.program(refusal))
        case .success(let run): answer = run
        }
        if let truncation = answer.truncation, truncation.reason != .until {
            return .failure(.truncated(truncation.message))
        }
        let program = PipelineLanguage.parse(text).program
        let rows = Set(program.streams.filter { isMarbles($0.expression) }.map(\.name))
        let usesServices = Self.callsAService(text)
        if let missing = wanted?.first(where: { name in !answer.streams.contains { $0.name == name } }) {
            return .failure(.unknownStream(missing))
        }
        // A named row becomes an input the test gives as ReactiveTesting's cold marbles; the others
        // (a `marbles(…)` inside an expression, a row at another frame) stay in the program.
        let frame = answer.frame
        let coldRows = program.streams.compactMap { coldRow($0, frame: frame) }
        var programLines = text.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for row in coldRows { programLines[row.line - 1] = "input \(row.name): \(row.kind)" }
        let stated = answer.streams.filter { wanted?.contains($0.name) ?? !rows.contains($0.name) }
        var lines: [String] = []
        for drawing in stated {
            lines.append("    #expect(run.events(\(swiftString(drawing.name))) == \(expectation(of: drawing, frame: frame)))")
        }
        // The input rows' subscriptions: a cold input's own, a row the program still names, or a
        // `marbles(…)` written inside a stated stream (`out·marbles`).
        // At the run's frame, which a stream too dense for it was not drawn at.
        var subscribed = answer.streams.filter { rows.contains($0.name) }.map { ($0.name, $0.subscriptions(atFrame: frame).own) }
        for drawing in stated {
            subscribed += drawing.subscriptions(atFrame: frame).sources.filter { $0.name.hasSuffix("·marbles") }.map { ($0.name, $0.subscriptions) }
        }
        for (stream, subscriptions) in subscribed {
            let diagrams = subscriptions.map(swiftString).joined(separator: ", ")
            let cold = coldRows.contains { $0.name == stream }
            lines.append("    #expect(\(cold ? "\(stream).subscriptions" : "run.subscriptions(\(swiftString(stream)))") == [\(diagrams)])")
        }
        var arguments = ["\n        " + rawString(programLines.joined(separator: "\n"), indent: "        ")]
        if !coldRows.isEmpty {
            arguments.append("\n        inputs: [" + coldRows.map { "\(swiftString($0.name)): \($0.name).signal" }.joined(separator: ", ") + "]")
            arguments.append("\n        frame: .milliseconds(\(number(frame)))")
            arguments.append("\n        on: scheduler")
        }
        if answer.truncation != nil { arguments.append("\n        until: \(number(answer.until))") }
        if usesServices { arguments.append("\n        services: { Services(scheduler: $0, settings: ScenarioSettings()).programServices }") }
        let imports =
            ["Pipelines", "ReactiveTesting", "Testing"] + (usesServices ? ["ProgramServices", "Scenarios"] : [])
            + (coldRows.isEmpty ? [] : ["Reactive"])
        let about = title.map { "/// \($0), stated as a test" } ?? "/// A marble program, stated as a test"
        var body = ""
        if !coldRows.isEmpty {
            body += "    let scheduler = TestScheduler()\n"
            for row in coldRows {
                body += "    let \(row.name) = try Marbles.cold(\n        \(swiftString(row.diagram)),\n"
                body += "        values: \(row.values),\n        error: \(row.failure),\n"
                body += "        frame: .milliseconds(\(number(frame))),\n        on: scheduler\n    )\n"
            }
        }
        return .success(
            imports.sorted().map { "import \($0)" }.joined(separator: "\n") + "\n\n"
                + about + ": the program run on a virtual clock (a frame is \(number(frame)) ms), "
                + (coldRows.isEmpty ? "its rows\n/// the program's cold `marbles(…)`, " : "its input rows\n/// given as cold marbles, ")
                + "each stream compared with its marble diagram, each row's subscriptions\n"
                + "/// with subscription marbles. Written by Reactive Playground's \"Copy as a test\".\n"
                + "@Test func \(keywords.contains(name) ? "`\(name)`" : name)() throws {\n"
                + body
                + "    let run = try ProgramMarbles.run(" + arguments.joined(separator: ",") + "\n    )\n"
                + lines.joined(separator: "\n") + "\n}\n"
        )
    }

    /// A named row the test gives as ReactiveTesting's cold marbles: `NAME = marbles("…", k: v)`
    /// alone on its line, its letters' values constants (a nested diagram is its text), at the
    /// drawing's frame.
    struct ColdRow {
        let name: String
        let line: Int
        let kind: String
        let diagram: String
        /// The letters' values, as a Swift literal of `[Character: Value]`.
        let values: String
        /// What its `#` fails with, as the program's `marbles(…)` fails, as a Swift literal.
        let failure: String
    }

    static func coldRow(_ definition: StreamDefinition, frame: Double) -> ColdRow? {
        guard case .call(.name("marbles", _), let arguments, let range) = definition.expression, range.line == definition.range.line,
            let first = arguments.first, first.label == nil, case .string(let diagram, _) = first.value,
            let entries = try? Marbles.parse(diagram, values: { $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        var given: [Character: Value] = [:]
        var rowFrame = 100.0
        for argument in arguments.dropFirst() {
            guard let label = argument.label else { return nil }
            if label == "frame" {
                guard case .duration(let milliseconds, _) = argument.value else { return nil }
                rowFrame = milliseconds
            } else {
                guard label.count == 1, let letter = label.first, let value = constant(argument.value) else { return nil }
                given[letter] = value
            }
        }
        // At the drawing's frame (its subscriptions are drawn in frames of it): else the row stays
        // in the program.
        guard rowFrame == frame else { return nil }
        var values: [(Character, Value)] = []
        var failure = "ProgramMarbles.noFailure"
        for entry in entries {
            switch entry.symbol {
            case "|": break
            case "#":
                failure = "PipelineFailure(code: \"failure\", message: \(swiftString("the diagram's `#` in frame \(entry.frame)")))"
            default:
                guard !values.contains(where: { $0.0 == entry.symbol }) else { continue }
                let digit = entry.symbol.wholeNumberValue.map { Value.number(Double($0)) }
                values.append((entry.symbol, given[entry.symbol] ?? digit ?? .string(String(entry.symbol))))
            }
        }
        let kind: String
        if !values.isEmpty, values.allSatisfy({ if case .number = $0.1 { true } else { false } }) {
            kind = "number"
        } else if !values.isEmpty, values.allSatisfy({ if case .bool = $0.1 { true } else { false } }) {
            kind = "bool"
        } else {
            kind = "text"
        }
        let table = values.isEmpty ? "[:]" : "[" + values.map { "\(swiftString(String($0.0))): \(literal($0.1))" }.joined(separator: ", ") + "]"
        return ColdRow(
            name: definition.name,
            line: definition.range.line,
            kind: kind,
            diagram: diagram,
            values: table + " as [Character: Value]",
            failure: failure
        )
    }

    /// A constant expression's value: a literal, or a nested diagram `marbles("…")` as its text.
    static func constant(_ expression: Pipelines.Expression) -> Value? {
        switch expression {
        case .number(let number, _): return .number(number)
        case .string(let text, _): return .string(text)
        case .bool(let flag, _): return .bool(flag)
        case .null: return .null
        case .unary("-", .number(let number, _), _): return .number(-number)
        case .array(let items, _):
            let values = items.compactMap(constant)
            return values.count == items.count ? .array(values) : nil
        case .dictionary(let entries, _):
            var fields: [String: Value] = [:]
            for entry in entries {
                guard let value = constant(entry.value) else { return nil }
                fields[entry.key] = value
            }
            return .object(fields)
        case .call(.name("marbles", _), let arguments, _):
            guard arguments.count == 1, arguments[0].label == nil, case .string(let text, _) = arguments[0].value else { return nil }
            return .string(text)
        default: return nil
        }
    }

    /// Swift's keywords, which a test's name is written around in backticks (a gallery entry `catch`).
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
        "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "self", "super", "throws",
        "true", "try", "await", "async", "any", "some", "consume", "copy", "borrowing", "consuming", "discard", "each", "macro",
    ]

    /// A stream's expected events: its diagram with the values of its letters, when it is drawn
    /// at the run's frame (its diagram reads back to the frames of its events); else (events too
    /// close for that frame: a group takes a frame per character) the events one by one.
    static func expectation(of drawing: ProgramDrawing.Drawing, frame: Double) -> String {
        let failure = drawing.events.first { $0.kind == .error }.flatMap { $0.valueJSON.flatMap(failureLiteral) }
        let error = failure ?? "ProgramMarbles.noFailure"
        let frames = drawing.events.map { frameOf($0, frame) }
        if drawing.frame == frame, let marbles = drawing.marbles, (try? Marbles.parse(marbles))?.map(\.frame) == frames, !marbles.contains("?") {
            let letters = drawing.values.map { "\(swiftString(String($0.letter))): \(literal($0.json))" }
            let table = (letters.isEmpty ? "[:]" : "[" + letters.joined(separator: ", ") + "]") + " as [Character: Value]"
            return "(try Marbles.events(\(swiftString(marbles)), values: \(table), error: \(error)))"
        }
        let events = drawing.events.map { event -> String in
            let what: String
            switch event.kind {
            case .next: what = ".next(\(event.valueJSON.map(literal) ?? ".null"))"
            case .error: what = ".error(\(error))"
            default: what = ".completed"
            }
            return "Marbles.Recorded<Value, PipelineFailure>(frame: \(frameOf(event, frame)), event: \(what))"
        }
        return "[\n" + events.map { "        " + $0 + ",\n" }.joined() + "    ]"
    }

    private static func frameOf(_ event: RecordedEvent, _ frame: Double) -> Int {
        Int((event.t / frame).rounded(.down))
    }

    private static func isMarbles(_ expression: Pipelines.Expression) -> Bool {
        if case .call(callee: .name("marbles", _), _, _) = expression { return true }
        return false
    }

    /// `{"code", "message"}` as a `PipelineFailure`.
    private static func failureLiteral(_ json: String) -> String? {
        guard case .success(.object(let fields)) = JSONValue.read(Array(json.utf8)),
            case .string(let code)? = fields["code"], case .string(let message)? = fields["message"]
        else { return nil }
        return "PipelineFailure(code: \(swiftString(code)), message: \(swiftString(message)))"
    }

    /// A value's JSON as a Swift literal of `Value`.
    static func literal(_ json: String) -> String {
        guard case .success(let value) = JSONValue.read(Array(json.utf8)) else { return "Value.null" }
        return literal(Value(value))
    }

    static func literal(_ value: Value) -> String {
        switch value {
        case .null: return "Value.null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let value): return number(value)
        case .string(let text): return swiftString(text)
        case .array(let items): return "[" + items.map(literal).joined(separator: ", ") + "] as Value"
        case .object(let fields):
            guard !fields.isEmpty else { return "[:] as Value" }
            let entries = fields.sorted { $0.key < $1.key }.map { "\(swiftString($0.key)): \(literal($0.value))" }
            return "[" + entries.joined(separator: ", ") + "] as Value"
        }
    }

    /// `text` as a Swift string literal.
    static func swiftString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped + "\""
    }

    /// `text` as a raw multi-line Swift string literal, its lines indented by `indent`: as many `#`
    /// as it takes for nothing in the text to end the literal or interpolate.
    static func rawString(_ text: String, indent: String) -> String {
        // A carriage return or another control character would not survive a multi-line literal.
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }) {
            return swiftString(text)
        }
        var hashes = "#"
        while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
        return hashes + "\"\"\"\n" + body.joined(separator: "\n") + "\n" + indent + "\"\"\"" + hashes
    }

    /// Whether `text` calls one of the scenarios' services (the source table's `Service.Name`s),
    /// as a source — `subscribe(email)`, not the operator `.subscribe(on:)`.
    static func callsAService(_ text: String) -> Bool {
        Service.Name.allCases.contains { name in
            text.ranges(of: "\(name.rawValue)(").contains { range in
                range.lowerBound == text.startIndex || text[text.index(before: range.lowerBound)] != "."
            }
        }
    }
}

extension API {
    /// `POST /api/marbles/test?name=NAME&title=TITLE&streams=A,B`: the program in the body (as for
    /// `POST /api/marbles`) written as a Swift Testing test (``MarbleTestWriter``), as text.
    func writeMarbleTest(_ request: HTTPRequest) -> HTTPResponse {
        guard let text = String(validating: request.body, as: UTF8.self) else { return InputBodyError.invalidUTF8.response }
        let name = request.query["name"] ?? "marbles"
        guard Self.isIdentifier(name) else {
            return PlaygroundError(.invalidValue, "name is the test's function name: a lower-case letter, then letters or digits, at most 64.")
                .response
        }
        let title = request.query["title"]
        if let title, title.count > 200 || title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return PlaygroundError(.invalidValue, "title is one line of at most 200 characters.").response
        }
        let streams = request.query["streams"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        if let streams, streams.count > 50 || !streams.allSatisfy(Self.isIdentifier) {
            return PlaygroundError(.invalidValue, "streams is a comma-separated list of stream names, at most 50.").response
        }
        switch MarbleTestWriter.write(text, name: name, title: title, streams: streams, limits: programLimits) {
        case .failure(let refusal): return refusal.response
        case .success(let source):
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/x-swift; charset=utf-8")], body: .bytes(Array(source.utf8)))
        }
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count), let first = name.utf8.first, (97...122).contains(first) else { return false }
        return name.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
