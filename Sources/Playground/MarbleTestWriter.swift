import Foundation
import MicroHTTP
import Pipelines
import ReactiveTesting
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
                .error(status: 400, code: "not_testable", message: "The run was cut short: \(message) A test states a whole run.")
            case .unknownStream(let name):
                .error(status: 400, code: "invalid_value", message: "The program has no stream `\(name)` to state.")
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
        let answer: MarblesRun.Answer
        switch MarblesRun.run(text, until: nil, limits: limits) {
        case .failure(let refusal): return .failure(.program(refusal))
        case .success(let run): answer = run
        }
        if let truncation = answer.truncation, truncation.reason != .until {
            return .failure(.truncated(truncation.message))
        }
        let program = PipelineLanguage.parse(text).program
        let rows = Set(program.streams.filter { isMarbles($0.expression) }.map(\.name))
        let usesServices = ["search(", "signIn(", "subscribe(", "request("].contains { text.contains($0) }
        if let missing = wanted?.first(where: { name in !answer.streams.contains { $0.name == name } }) {
            return .failure(.unknownStream(missing))
        }
        let stated = answer.streams.filter { wanted?.contains($0.name) ?? !rows.contains($0.name) }
        var lines: [String] = []
        for drawing in stated {
            lines.append("    #expect(run.events(\(swiftString(drawing.name))) == \(expectation(of: drawing, frame: answer.frame)))")
        }
        // The input rows' subscriptions: a row named by a stream, or a `marbles(…)` written inside
        // a stated stream (the gallery's rows: `out·marbles`).
        var subscribed = answer.streams.filter { rows.contains($0.name) }.map { ($0.name, $0.subscriptions) }
        for drawing in stated {
            subscribed += drawing.sources.filter { $0.name.hasSuffix("·marbles") }.map { ($0.name, $0.subscriptions) }
        }
        for (stream, subscriptions) in subscribed {
            let diagrams = subscriptions.map(swiftString).joined(separator: ", ")
            lines.append("    #expect(run.subscriptions(\(swiftString(stream))) == [\(diagrams)])")
        }
        var arguments = ["\n        " + rawString(text.trimmingCharacters(in: .newlines), indent: "        ")]
        if answer.truncation != nil { arguments.append("\n        until: \(number(answer.until))") }
        if usesServices { arguments.append("\n        services: { Services(scheduler: $0, settings: ScenarioSettings()).programServices }") }
        let imports = ["Pipelines", "ReactiveTesting", "Testing"] + (usesServices ? ["Scenarios"] : [])
        let about = title.map { "/// \($0), stated as a test" } ?? "/// A marble program, stated as a test"
        return .success(
            imports.sorted().map { "import \($0)" }.joined(separator: "\n") + "\n\n"
                + about + ": the program run on a virtual clock (a frame is \(number(answer.frame)) ms), each stream\n"
                + "/// compared with its marble diagram, each input row's subscriptions with subscription marbles.\n"
                + "/// Written by Reactive Playground's \"Copy as a test\".\n"
                + "@Test func \(keywords.contains(name) ? "`\(name)`" : name)() throws {\n"
                + "    let run = try ProgramMarbles.run(" + arguments.joined(separator: ",") + "\n    )\n"
                + lines.joined(separator: "\n") + "\n}\n"
        )
    }

    /// Swift's keywords, which a test's name is written around in backticks (a gallery entry `catch`).
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
        "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
        "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "self", "super", "throws",
        "true", "try", "await", "async", "any", "some", "consume", "copy", "borrowing", "consuming", "discard", "each", "macro",
    ]

    /// A stream's expected events: its diagram with the values of its letters, when the diagram
    /// reads back to the same frames; else (RxJS notation draws an event that follows a group
    /// closely a frame late) the events one by one.
    static func expectation(of drawing: MarblesRun.Drawing, frame: Double) -> String {
        let failure = drawing.events.first { $0.kind == "error" }.flatMap { $0.valueJSON.flatMap(failureLiteral) }
        let error = failure ?? "ProgramMarbles.noFailure"
        let frames = drawing.events.map { frameOf($0, frame) }
        let readBack = (try? Marbles.parse(drawing.marbles))?.map(\.frame)
        if readBack == frames, !drawing.marbles.contains("?") {
            let letters = drawing.values.map { "\(swiftString(String($0.letter))): \(literal($0.json))" }
            let table = (letters.isEmpty ? "[:]" : "[" + letters.joined(separator: ", ") + "]") + " as [Character: Value]"
            return "(try Marbles.events(\(swiftString(drawing.marbles)), values: \(table), error: \(error)))"
        }
        let events = drawing.events.map { event -> String in
            let what: String
            switch event.kind {
            case "next": what = ".next(\(event.valueJSON.map(literal) ?? ".null"))"
            case "error": what = ".error(\(error))"
            default: what = ".completed"
            }
            return "Marbles.Recorded<Value, PipelineFailure>(frame: \(frameOf(event, frame)), event: \(what))"
        }
        return "[\n" + events.map { "        " + $0 + ",\n" }.joined() + "    ]"
    }

    private static func frameOf(_ event: MarblesRun.Recorded, _ frame: Double) -> Int {
        Int((Double(event.time / .microseconds(1)) / 1_000 / frame).rounded(.down))
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

    /// A number as Swift writes it: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 9_007_199_254_740_992 ? String(Int64(value)) : "\(value)"
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
}

extension API {
    /// `POST /api/marbles/test?name=NAME&title=TITLE&streams=A,B`: the program in the body (as for
    /// `POST /api/marbles`) written as a Swift Testing test (``MarbleTestWriter``), as text.
    func writeMarbleTest(_ request: HTTPRequest) -> HTTPResponse {
        guard let text = String(validating: request.body, as: UTF8.self) else { return InputBodyError.invalidUTF8.response }
        let name = request.query["name"] ?? "marbles"
        guard Self.isIdentifier(name) else {
            return .error(
                status: 400,
                code: "invalid_value",
                message: "name is the test's function name: a lower-case letter, then letters or digits, at most 64."
            )
        }
        let title = request.query["title"]
        if let title, title.count > 200 || title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .error(status: 400, code: "invalid_value", message: "title is one line of at most 200 characters.")
        }
        let streams = request.query["streams"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        if let streams, streams.count > 50 || !streams.allSatisfy(Self.isIdentifier) {
            return .error(status: 400, code: "invalid_value", message: "streams is a comma-separated list of stream names, at most 50.")
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
