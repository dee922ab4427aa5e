/// A value flowing through a program's streams: JSON. Numbers are doubles (`7 / 2` is `3.5`);
/// whole numbers are shown without a fraction.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Value])
    case object([String: Value])

    /// The kind of value, as messages name it.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as text, for string interpolation and `+` with a string: strings as they are,
    /// everything else as JSON.
    var text: String {
        if case .string(let string) = self { return string }
        return jsonText
    }

    /// The value as compact JSON, object keys sorted.
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return Value.format(value)
        case .string(let value): return Value.quote(value)
        case .array(let values): return "[" + values.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.keys.sorted().map { Value.quote($0) + ":" + fields[$0]!.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// The value as a literal of the language, which evaluates back to it (`"a"`, `-2.5`,
    /// `["k": [1, true]]`); `nil` when no literal writes it: a string with a control character
    /// other than a newline or a tab, or a number written with an exponent.
    public var literal: String? {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            let text = Value.format(value)
            return text.contains("e") || !value.isFinite ? nil : text
        case .string(let value):
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) else { return nil }
            return Value.quote(value)
        case .array(let values):
            var parts: [String] = []
            for value in values {
                guard let part = value.literal else { return nil }
                parts.append(part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        case .object(let fields):
            guard !fields.isEmpty else { return "[:]" }
            var parts: [String] = []
            for key in fields.keys.sorted() {
                guard let keyLiteral = Value.string(key).literal, let part = fields[key]!.literal else { return nil }
                parts.append(keyLiteral + ": " + part)
            }
            return "[" + parts.joined(separator: ", ") + "]"
        }
    }

    /// A number as JSON: whole numbers (up to 2^53) without a fraction.
    static func format(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 9_007_199_254_740_992 { return String(Int64(number)) }
        return "\(number)"
    }

    private static func quote(_ string: String) -> String {
        var quoted = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                quoted += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

/// Why a stream of a program failed: a closure that could not compute its value, a limit, or an
/// error a source sent. `code` is snake_case; `message` names the line and column when a closure
/// failed.
public struct PipelineFailure: Error, Sendable, Hashable {
    /// A snake_case code (`closure_failed`, `input_failed`, `failure`…).
    public var code: String
    /// A sentence for people.
    public var message: String

    /// Creates a failure.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// A closure's failure at `range`: "line 3, column 12: `.count` of a number".
    static func closure(_ reason: String, at range: SourceRange) -> PipelineFailure {
        PipelineFailure(code: "closure_failed", message: "line \(range.line), column \(range.column): \(reason)")
    }
}

/// Literals of values, as a Swift caller writes them (`let v: Value = ["a": 1]`).
extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A whole number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A bool.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// An object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
