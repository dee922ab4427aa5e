import Reactive

/// RACChannel two-way binding: two text fields bound two ways to one model property through channels
/// (`RACChannelTo(field, text) = RACChannelTo(model, name)`), and a label bound one way
/// (`RAC(label, text) = RACObserve(model, name)`).
public final class Binding: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Binding>] = [
        .text("fieldA", "What is typed into field A.", \.typedIntoA),
        .text("fieldB", "What is typed into field B.", \.typedIntoB),
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "binding",
        title: "Two-way binding",
        sourceFile: "Binding.swift",
        description: "Two-way binding with RACChannel: two fields bound two ways to one model property. The model's name is bound "
            + "to field A and to field B, each through a channel (RACChannelTo(field, text) = RACChannelTo(model, name)), and one way to a label "
            + "(RAC(label, text) = RACObserve(model, name)). Typing into A sets the model, which updates B and the "
            + "label; a channel terminal never hears its own values, so nothing echoes back into A. At binding "
            + "the model's value wins, so both fields start with it. Two people can each take a field.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "fieldA",
                description: "Field A's text: what is typed into it and what the model sends it.",
                operator: "RACChannelTo",
                from: ["fieldA", "name"],
                state: true
            ),
            StreamDescription(
                name: "fieldB",
                description: "Field B's text: what is typed into it and what the model sends it.",
                operator: "RACChannelTo",
                from: ["fieldB", "name"],
                state: true
            ),
            StreamDescription(
                name: "name",
                description: "The model's name, set through either field's channel.",
                operator: "RACChannelTo",
                from: ["fieldA", "fieldB"],
                state: true
            ),
            StreamDescription(
                name: "label",
                description: "The label's text, bound one way to the name.",
                operator: "RAC = RACObserve + map",
                from: ["name"],
                state: true
            ),
        ]
    )

    /// The model's name before anyone types: the fields take it when they are bound.
    static let initialName = "Ada"

    private let stages: Stages
    private let typedIntoA = TextInput()
    private let typedIntoB = TextInput()
    // The view and the view model: plain properties, as RAC binds UIKit and model objects.
    private let name = MutableProperty(Binding.initialName)
    private let fieldA = MutableProperty("")
    private let fieldB = MutableProperty("")
    private let label = MutableProperty("")

    /// Builds the bindings on `scheduler`'s thread and starts sending the named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        stages = Stages(sink: sink)
        // Typing sets the field's text (skipping the inputs' empty starting value: a field's edits).
        stages.add(fieldA.bind(from: typedIntoA.signal.skip(1)))
        stages.add(fieldB.bind(from: typedIntoB.signal.skip(1)))

        // The streams observe before the channels are bound, so the binding itself shows (each
        // field takes the model's name) and each change reads in the order it spreads (depth first).
        // A field's stream ends when what is typed into it does (`?event=completed|error`).
        stages.watch("fieldA", fieldA.signal.promoteError(ErrorInfo.self).ending(with: typedIntoA.signal))
        stages.watch("fieldB", fieldB.signal.promoteError(ErrorInfo.self).ending(with: typedIntoB.signal))
        stages.watch("name", name.signal)
        stages.watch("label", label.signal)

        // RAC(label, text) = RACObserve(model, name)
        stages.add(label.bind(from: name.signal.map { $0.isEmpty ? "Who are you?" : "Hello, \($0)!" }))

        // RACChannelTo(field, text) = RACChannelTo(model, name): the model's current value wins.
        stages.add(fieldA.makeTerminal().bind(to: name.makeTerminal()))
        stages.add(fieldB.makeTerminal().bind(to: name.makeTerminal()))
    }

    /// Disposes every binding and stream.
    public func stop() { stages.stop() }
}
