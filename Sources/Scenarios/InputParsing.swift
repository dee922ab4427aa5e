import Foundation

/// An input value as it arrived, before it is checked against the input's kind.
public enum RawInput: Sendable, Equatable {
    /// A JSON body (`application/json`).
    case json(JSONValue)
    /// A raw text body (`text/plain`, a form body taken as text, or no Content-Type).
    case text(String)
}

/// Why an input value was refused.
public enum InputError: Error, Equatable, Sendable {
    /// The scenario has no input with that name (404 `unknown_input`).
    case unknownInput(String)
    /// The value does not fit the input's kind (400 `invalid_value`).
    case invalidValue(String)
}

extension PipelineDescription {
    /// The longest text value accepted, in characters.
    public static let maximumTextLength = 1_000

    /// The input named `name`, or `nil`.
    public func input(named name: String) -> InputDescription? {
        inputs.first { $0.name == name }
    }

    /// Checks `raw` against the kind of input `name` and returns the value to apply.
    ///
    /// Text inputs take a JSON string or raw text; bool inputs `true`/`false` (JSON, or as text);
    /// number inputs a JSON number or a number as text; choice inputs one of their options;
    /// actions ignore their value.
    public func value(for name: String, from raw: RawInput) -> Result<InputValue, InputError> {
        guard let input = input(named: name) else { return .failure(.unknownInput(name)) }
        switch (input.kind, raw) {
        case (.action, _):
            return .success(.action)
        case (.text, .json(.string(let text))), (.text, .text(let text)):
            guard text.count <= Self.maximumTextLength else {
                return .failure(.invalidValue("'\(name)' takes at most \(Self.maximumTextLength) characters."))
            }
            return .success(.text(text))
        case (.bool, .json(.bool(let flag))):
            return .success(.bool(flag))
        case (.bool, .text(let text)):
            switch text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
            case "true": return .success(.bool(true))
            case "false": return .success(.bool(false))
            default: return .failure(.invalidValue("'\(name)' takes true or false."))
            }
        case (.number, .json(.int(let number))):
            return .success(.number(Double(number)))
        case (.number, .json(.double(let number))) where number.isFinite:
            return .success(.number(number))
        case (.number, .text(let text)):
            guard let number = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), number.isFinite else {
                return .failure(.invalidValue("'\(name)' takes a number."))
            }
            return .success(.number(number))
        case (.choice, .json(.string(let option))), (.choice, .text(let option)):
            guard input.options?.contains(option) == true else {
                let options = (input.options ?? []).joined(separator: ", ")
                return .failure(.invalidValue("'\(name)' takes one of: \(options)."))
            }
            return .success(.choice(option))
        case (.text, _):
            return .failure(.invalidValue("'\(name)' takes text: a JSON string, or a text/plain body."))
        case (.bool, _):
            return .failure(.invalidValue("'\(name)' takes true or false."))
        case (.number, _):
            return .failure(.invalidValue("'\(name)' takes a number."))
        case (.choice, _):
            return .failure(.invalidValue("'\(name)' takes one of its options as a string."))
        }
    }
}
