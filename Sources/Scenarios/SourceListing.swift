/// A scenario's own Swift file, embedded at build time (`ScenarioSources/*.swift.txt` are
/// symlinks to the compiled files), so the page can show the pipeline beside its streams.
public struct SourceListing: Sendable, Encodable {
    /// The file's path in the repository.
    public let path: String
    /// The file's text.
    public let swift: String

    /// The embedded file named `name` (such as `Login.swift`). A name with no embedded file is a
    /// programming error: `resources` in Package.swift must list it.
    init(file name: String) {
        guard let bytes = Self.embedded[name] else { preconditionFailure("\(name) is not embedded: add it to Package.swift") }
        path = "Sources/Scenarios/\(name)"
        swift = String(decoding: bytes, as: UTF8.self)
    }

    /// The text of a program of the pipeline language (docs/PIPELINES.md), shown as a scenario's
    /// source is; `path` is `program`.
    public init(program text: String) {
        path = "program"
        swift = text
    }

    private static let embedded: [String: [UInt8]] = [
        "Login.swift": PackageResources.Login_swift_txt,
        "Search.swift": PackageResources.Search_swift_txt,
        "CommandScenario.swift": PackageResources.CommandScenario_swift_txt,
        "Binding.swift": PackageResources.Binding_swift_txt,
        "Multicast.swift": PackageResources.Multicast_swift_txt,
        "Schedulers.swift": PackageResources.Schedulers_swift_txt,
        "Ticker.swift": PackageResources.Ticker_swift_txt,
    ]
}
