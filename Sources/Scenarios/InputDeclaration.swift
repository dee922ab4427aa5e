/// One input of a scenario, declared once: its catalogue entry together with the object of a
/// running scenario that receives it, so that an input cannot be listed without being wired (or
/// wired under a misspelt name). Its kind follows from that object's type.
///
/// A scenario lists them in `static let inputs`, builds its ``PipelineDescription`` from them, and
/// gets ``Scenario/apply(_:to:)`` for free.
public struct InputDeclaration<Owner: Scenario>: Sendable {
    /// The catalogue entry.
    public let description: InputDescription
    /// The receiving object of a running scenario.
    let receiver: @Sendable (Owner) -> any ScenarioInput

    /// A text field.
    static func text(_ name: String, _ description: String, _ input: KeyPath<Owner, TextInput> & Sendable) -> Self {
        Self(description: InputDescription(name: name, kind: .text, description: description)) { $0[keyPath: input] }
    }

    /// A switch.
    static func bool(_ name: String, _ description: String, _ input: KeyPath<Owner, BoolInput> & Sendable) -> Self {
        Self(description: InputDescription(name: name, kind: .bool, description: description)) { $0[keyPath: input] }
    }

    /// A choice among `options`.
    static func choice(
        _ name: String,
        _ description: String,
        options: [String],
        _ input: KeyPath<Owner, ChoiceInput> & Sendable
    ) -> Self {
        Self(description: InputDescription(name: name, kind: .choice, description: description, options: options)) {
            $0[keyPath: input]
        }
    }

    /// A button.
    static func action(_ name: String, _ description: String, _ input: KeyPath<Owner, ActionInput> & Sendable) -> Self {
        Self(description: InputDescription(name: name, kind: .action, description: description)) { $0[keyPath: input] }
    }
}
