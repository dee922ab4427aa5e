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
