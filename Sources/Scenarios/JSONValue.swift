import Foundation

/// A JSON value: what a stream's events carry to the outside world.
/// JSON as data: encodable for responses and events, decodable for input bodies.
public enum JSONValue: Sendable, Equatable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number.
    case int(Int)
    /// A number with a fraction.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Why bytes from outside are not a value: not one JSON value, or nested too deep.
    public enum ReadError: Error {
        case invalid
        case tooDeep
    }

    /// The deepest nesting of arrays and objects ``read(_:)`` accepts: deeper than any value a
    /// program can write (its expressions nest 64 levels at most).
    public static let maximumDepth = 64

    /// Reads one JSON value from bytes from outside. The depth is checked first, in one pass:
    /// Foundation's decoder, asked for this enum, tries each kind in turn at every level, and each
    /// failed try costs time in proportion to the depth — a kilobyte of `[[[…]]]` took 0.7 s.
    public static func read(_ bytes: [UInt8]) -> Result<JSONValue, ReadError> {
        guard nestingDepth(of: bytes) <= maximumDepth else { return .failure(.tooDeep) }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return .failure(.invalid) }
        return .success(value)
    }

    /// The deepest nesting of `[` and `{` outside strings (of well-formed JSON or not).
    static func nestingDepth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var isInString = false
        var isEscaped = false
        for byte in bytes {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): isInString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

/// A value a scenario's stream can carry, with its JSON form.
public protocol JSONRepresentable: Sendable {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension Bool: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { .bool(self) }
}

extension Int: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { .int(self) }
}

extension Double: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { .double(self) }
}

extension String: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { .string(self) }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension JSONValue: JSONRepresentable {
    /// The value as JSON.
    public var jsonValue: JSONValue { self }
}
