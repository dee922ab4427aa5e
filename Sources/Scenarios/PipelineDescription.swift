/// What a session runs, as the page and the API show it: a pipeline's inputs and named streams,
/// and its source. One type for both kinds of session: a built-in scenario's (the catalogue's
/// entries) and a user's program's (its id is `pipeline`, its source the program's text).
public struct PipelineDescription: Sendable, Encodable {
    /// The scenario's id, used in URLs (`ticker`, `login`, ...); `pipeline` for a program.
    public let id: String
    /// A short title.
    public let title: String
    /// One or two sentences on what the pipeline shows.
    public let description: String
    /// The inputs a client can send, in display order.
    public let inputs: [InputDescription]
    /// The streams of the pipeline, in pipeline order.
    public let streams: [StreamDescription]
    /// The pipeline's source: the scenario's own Swift file.
    public let source: SourceListing
    /// The scenario restated as a program of the pipeline language, when the language can write
    /// it (`POST /api/pipelines` runs it); the program says in comments what differs.
    public let pipeline: String?
    /// How long the pipeline's story takes to play out at the default timings — an input's value
    /// through its longest chain of waits (search: a 0.5 s throttle, then a search of 1 s) — or
    /// nil when nothing waits. The page opens the diagram at a window a few times this wide.
    public let timeScale: Duration?

    /// Creates a description; `sourceFile` names the scenario's own file in `Sources/Scenarios`.
    init(
        id: String,
        title: String,
        sourceFile: String,
        description: String,
        inputs: [InputDescription],
        streams: [StreamDescription],
        program: String? = nil,
        timeScale: Duration? = nil
    ) {
        self.init(
            id: id,
            title: title,
            description: description,
            inputs: inputs,
            streams: streams,
            source: SourceListing(file: sourceFile),
            pipeline: program,
            timeScale: timeScale
        )
    }

    /// Creates a description of any pipeline: a user's program, say.
    public init(
        id: String,
        title: String,
        description: String,
        inputs: [InputDescription],
        streams: [StreamDescription],
        source: SourceListing,
        pipeline: String? = nil,
        timeScale: Duration? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.inputs = inputs
        self.streams = streams
        self.source = source
        self.pipeline = pipeline
        self.timeScale = timeScale
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, description, inputs, streams, source, pipeline, timeScale
    }

    /// The JSON the API answers; `timeScale` in whole milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(streams, forKey: .streams)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(pipeline, forKey: .pipeline)
        try container.encodeIfPresent(timeScale.map { Int($0 / .milliseconds(1)) }, forKey: .timeScale)
    }
}

/// One input of a scenario.
public struct InputDescription: Sendable, Encodable {
    /// What kind of value the input takes.
    public enum Kind: String, Sendable, Encodable {
        /// Text, such as a text field's contents.
        case text
        /// A switch: `true` or `false`.
        case bool
        /// A number.
        case number
        /// One of `options`.
        case choice
        /// A button: no value.
        case action
    }

    /// The input's name, used in its URL.
    public let name: String
    /// Its kind.
    public let kind: Kind
    /// What it does.
    public let description: String
    /// The allowed values of a `choice` input.
    public let options: [String]?

    /// Creates an input description.
    public init(name: String, kind: Kind, description: String, options: [String]? = nil) {
        self.name = name
        self.kind = kind
        self.description = description
        self.options = options
    }
}

/// One named stream of a scenario's pipeline.
public struct StreamDescription: Sendable, Encodable {
    /// The stream's name, which is also the SSE `event:` name.
    public let name: String
    /// What it carries.
    public let description: String
    /// The operator that produces it (`map`, `throttle`, ...).
    public let `operator`: String
    /// The inputs and streams feeding it.
    public let from: [String]
    /// Whether it is a current-value stream whose latest event a new watcher receives on connect.
    public let state: Bool
    /// For a program's stream or stage: the line it is written on, from 1.
    public let line: Int?
    /// For a program's stream or stage: the column of its name (a stage's operator), from 1.
    public let column: Int?
    /// For a stage of a program's chain: the named stream whose chain it belongs to.
    public let stageOf: String?
    /// For a state stream with a few known values (a small enumeration): those values, in the
    /// order the page draws them as levels of a step line, top first.
    public let levels: [String]?
    /// The subscriptions its work makes inside it, each reported under its own name (the search's
    /// `results·search`, a program's `r·request`, a flattening's inner `x·just`): the SSE `event:`
    /// names of its inner lanes. `nil` when it makes none.
    public let sources: [String]?

    /// Creates a stream description.
    public init(
        name: String,
        description: String,
        operator: String,
        from: [String],
        state: Bool,
        line: Int? = nil,
        column: Int? = nil,
        stageOf: String? = nil,
        levels: [String]? = nil,
        sources: [String]? = nil
    ) {
        self.levels = levels
        self.sources = sources
        self.line = line
        self.column = column
        self.stageOf = stageOf
        self.name = name
        self.description = description
        self.operator = `operator`
        self.from = from
        self.state = state
    }
}
