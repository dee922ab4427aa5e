import Foundation
import Testing

@testable import Pipelines

/// The table of the language's sources (``LanguageSource/all``) is the one place a source is
/// spelled: the vocabulary, the sharing check, the time scale, the interpreter and the server's
/// services read it, and docs/PIPELINES.md is held to it here, so that a source added to the
/// table alone fails with what is missing, and a list of sources spelled again by hand fails too.
@Suite("Pipeline language: the table of sources and its readers")
struct SourceTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// A service for each the table declares, sending nothing: what a server provides, without
    /// its work.
    static let services = Service.declared { _ in { _ throws(PipelineFailure) in .empty } }

    /// The sources a stream can start from (all but those that start a line of their own).
    static let streamSources = LanguageSource.all.filter { $0.kind != .line }

    /// `stream = USAGE` after an input for each name the usage reads that the language does not
    /// know (`query` in `search(query)`, `a` and `b` in `merge(a, b)`), then `lines`.
    static func program(_ usage: String, as stream: String = "x", then lines: [String] = []) -> String {
        let (parsed, _) = PipelineLanguage.parse("\(stream) = \(usage)")
        var names: [String] = []
        var pending = parsed.streams.map(\.expression)
        while let next = pending.popLast() {
            if case .name(let name, _) = next, !Vocabulary.reserved.contains(name), !names.contains(name) { names.append(name) }
            pending.append(contentsOf: next.subexpressions)
        }
        return (names.sorted().map { "input \($0): text" } + ["\(stream) = \(usage)"] + lines).joined(separator: "\n")
    }

    @Test func theVocabularyIsTheTable() {
        #expect(Vocabulary.sources == Set(LanguageSource.all.map(\.name)))
        for entry in LanguageSource.all {
            #expect(Vocabulary.reserved.contains(entry.name), "`\(entry.name)` may not name a stream")
            #expect(LanguageSource.byName[entry.name]?.usage == entry.usage, "a name twice in the table: `\(entry.name)`")
            #expect(entry.usage.contains(entry.name), "the usage of `\(entry.name)` does not show it: \(entry.usage)")
        }
        #expect(LanguageSource.byName.count == LanguageSource.all.count, "a name twice in the table")
    }

    /// Each source as its usage line writes it checks clean and builds, given the server's
    /// services: the entry, its shape and its builder agree.
    @Test(arguments: streamSources.map(\.name))
    func everySourceChecksAndBuildsAsItsUsageWritesIt(_ name: String) throws {
        let entry = try #require(LanguageSource.byName[name])
        let text = Self.program(entry.usage)
        let errors = PipelineLanguage.check(text).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(text): \(errors.map(\.message))")
        let (program, _) = PipelineLanguage.parse(text)
        #expect(Interpreter.validate(program, services: Self.services).map(\.message) == [], "\(text)")
        // Wrongly called, it answers with its usage line (a source with a shape of its own checks
        // it itself, in words of its own).
        guard entry.shape != nil || entry.waitsForTheServices else { return }
        let (wrong, _) = PipelineLanguage.parse("x = \(name)(nope: 1, 2)")
        let diagnostics = Interpreter.validate(wrong, services: Self.services)
        #expect(diagnostics.map(\.hint) == ["write `\(entry.usage)`"], "\(diagnostics.map(\.message))")
    }

    /// A name that starts a line of its own (`command`, `channel`), found inside a stream, is sent to its line.
    @Test func aLineOfItsOwnInsideAStreamIsSentThere() {
        let lines = LanguageSource.all.filter { $0.kind == .line }
        let expected = [
            "channel": (
                "a channel is one object, defined on a line of its own",
                "write `ch = channel()`, then read `ch.leadingTerminal` and `ch.followingTerminal`"
            ),
            "command": ("a command is defined on a line of its own", "write `c = command { … }.execute(on: trigger)`"),
        ]
        #expect(lines.map(\.name).sorted() == expected.keys.sorted())
        for entry in lines {
            let (program, _) = PipelineLanguage.parse("x = merge(\(entry.name)(), just(1))")
            let diagnostics = Interpreter.validate(program, services: Self.services)
            #expect(diagnostics.map(\.message) == [expected[entry.name]?.0])
            #expect(diagnostics.map(\.hint) == [expected[entry.name]?.1])
        }
    }

    /// The server's services are the table's (their names, arities and usage lines), and outside
    /// a server none is provided.
    @Test func theServicesAreTheTablesAndNoneIsProvidedOutsideAServer() throws {
        let declared = LanguageSource.all.filter(\.waitsForTheServices)
        #expect(Set(Self.services.keys) == Set(Service.Name.allCases.map(\.rawValue)), "every declared service has one entry")
        #expect(declared.count == Service.Name.allCases.count)
        for entry in declared {
            guard case .service(let name, let arity) = entry.kind else { continue }
            #expect(entry.name == name.rawValue)
            let service = try #require(Self.services[entry.name])
            #expect((service.arity, service.usage) == (arity, entry.usage))
            let (program, _) = PipelineLanguage.parse(Self.program(entry.usage))
            #expect(
                Interpreter.validate(program).map(\.message) == ["`\(entry.name)` is not available here: the server provides it"]
            )
        }
    }

    /// The sharing check warns of a stream read twice exactly when its source's subscriptions
    /// are work of their own (the entry's kind says so).
    @Test(arguments: streamSources.map(\.name))
    func theSharingCheckWarnsOfTheSourcesWithWork(_ name: String) throws {
        let entry = try #require(LanguageSource.byName[name])
        let text = Self.program(entry.usage, as: "shared", then: ["one = shared.map { $0 }", "two = shared.map { $0 }"])
        let warned = PipelineLanguage.check(text).contains { $0.severity == .warning && $0.message.hasPrefix("`shared` is subscribed 2 times") }
        #expect(warned == entry.subscriptionIsWork, "\(text)")
    }

    /// The time scale waits the services' latency for a service, a row's frames for `marbles`,
    /// a timer's duration for a timer, a block's `after`s for `createSignal`, and nothing for the others.
    @Test(arguments: streamSources.map(\.name))
    func theTimeScaleWaitsAsTheKindSays(_ name: String) throws {
        let entry = try #require(LanguageSource.byName[name])
        let (program, _) = PipelineLanguage.parse(Self.program(entry.usage))
        let scale = TimeScale.milliseconds(of: program, serviceLatency: .seconds(7))
        switch entry.kind {
        case .service: #expect(scale == 7_000)
        case .marbles: #expect(scale == 600, "\"-a-b-|\" at 100 ms a frame")
        case .timer, .block: #expect(scale.map { [1_000, 2_000].contains($0) } == true, "\(String(describing: scale))")
        case .values, .combining, .subject, .line: #expect(scale == nil)
        }
    }

    /// docs/PIPELINES.md's "Names a program can use" names every source.
    @Test func docsPipelinesNamesEverySource() throws {
        let docs = try Self.text("docs/PIPELINES.md")
        let start = try #require(docs.range(of: "\nSources: "))
        let paragraph = String(docs[start.upperBound...]).components(separatedBy: "\n\n").first ?? ""
        for entry in LanguageSource.all {
            #expect(paragraph.contains("`\(entry.name)`"), "docs/PIPELINES.md's \"Sources:\" does not name `\(entry.name)`")
        }
    }

    /// The table's readers derive their lists from it: none spells a source's name, and the
    /// builder has no `switch` over the names.
    @Test func noReaderSpellsTheSourcesAgain() throws {
        let readers = [
            "Sources/Pipelines/Vocabulary.swift", "Sources/Pipelines/SharingCheck.swift", "Sources/Pipelines/TimeScale.swift",
            "Sources/ProgramServices/ProgramServices.swift",
        ]
        for path in readers {
            let text = try Self.text(path)
            let spelled = LanguageSource.all.map(\.name).filter { text.contains("\"\($0)\"") }
            #expect(spelled.isEmpty, "\(path) spells \(spelled): read the source table instead")
        }
        #expect(!(try Self.text("Sources/Pipelines/Sources.swift")).contains("case \""), "Sources.swift chooses a source by name")
    }
}
