import Foundation
import Scenarios

/// The `data:` of one event: `{"stream","kind","value","seq","t","causes","thread","sub"}`
/// (`value` for `next` and `error` only, `sub` for every stream's events but an input's).
enum EventJSON {
    /// The JSON of an event's `value`: a `next`'s value, an `error`'s `{code, message}`; `nil` for
    /// `completed`.
    static func valueJSON(of event: StreamEvent) -> String? {
        switch event {
        case .next(let value): json(value)
        case .error(let failure): failureJSON(code: failure.code, message: failure.message)
        case .completed: nil
        }
    }

    static func encode(_ event: RecordedEvent) -> String {
        // Hand-assembled so the fields keep the documented order; names come from the catalogue
        // or a checked program (identifiers, `input:` and `·`: nothing JSON must escape), thread
        // names from the server's schedulers, and values are encoded by JSONEncoder.
        var data = #"{"stream":"\#(event.stream)","kind":"\#(event.kind.rawValue)""#
        if let valueJSON = event.valueJSON { data += #","value":"# + valueJSON }
        data += #","seq":\#(event.seq),"t":\#(event.t),"causes":["#
        data += event.causes.map(String.init).joined(separator: ",")
        data += #"],"thread":""# + event.thread + "\""
        if let subscription = event.subscription { data += #","sub":\#(subscription)"# }
        return data + "}"
    }

    /// The JSON of a failure: `{"code", "message"}`.
    static func failureJSON(code: String, message: String) -> String {
        json(.object(["code": .string(code), "message": .string(message)]))
    }

    static func json(_ value: JSONValue) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()
}

extension InputEvent {
    /// The input event as a recorded stream event (an action's press is `null`).
    var recorded: StreamEvent {
        switch self {
        case .next(let value): .next(value.json)
        case .completed: .completed
        case .error(let error): .error(error)
        }
    }
}

extension InputValue {
    /// The value as JSON, as the input's client sent it.
    var json: JSONValue {
        switch self {
        case .text(let text), .choice(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let number): .double(number)
        case .action: .null
        }
    }
}
