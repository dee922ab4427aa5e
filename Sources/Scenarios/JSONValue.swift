/// A JSON value: what a stream's events carry to the outside world.
public enum JSONValue: Sendable, Equatable, Encodable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

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
    public var jsonValue: JSONValue { .bool(self) }
}

extension Int: JSONRepresentable {
    public var jsonValue: JSONValue { .int(self) }
}

extension Double: JSONRepresentable {
    public var jsonValue: JSONValue { .double(self) }
}

extension String: JSONRepresentable {
    public var jsonValue: JSONValue { .string(self) }
}

extension JSONValue: JSONRepresentable {
    public var jsonValue: JSONValue { self }
}
