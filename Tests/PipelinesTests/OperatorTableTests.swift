import Foundation
import Testing

@testable import Pipelines

/// The table of the language's operators (``LanguageOperator/all``) is the one place an operator
/// is spelled: the vocabulary reads it, and the docs and the gallery are held to it here, so that
/// an operator added to the table alone fails with the row that is missing.
@Suite("Pipeline language: the table of operators and the docs")
struct OperatorTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// docs/OPERATORS.md's operator rows: each row's names (the first cell's code spans, to the
    /// first `(` or space) and its RAC cell.
    static func operatorRows() throws -> [(names: [String], rac: String)] {
        let text = try text("docs/OPERATORS.md")
        guard let start = text.range(of: "## Throttle"), let end = text.range(of: "## The operator gallery") else { return [] }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| "), !line.hasPrefix("| Reactive |"), !line.hasPrefix("| ---") else { return nil }
            let cells = line.components(separatedBy: " | ")
            guard cells.count > 1 else { return nil }
            let spans = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            let names = spans.map { span in
                String(span.element.prefix { $0 != "(" && $0 != " " && $0 != ":" }.drop { $0 == "." })
            }
            return (names, cells[1])
        }
    }

    @Test func theVocabularyIsTheTable() {
        for entry in LanguageOperator.all {
            #expect(Vocabulary.operators.contains(entry.name), "`\(entry.name)`")
            #expect(Vocabulary.reserved.contains(entry.name), "`\(entry.name)` may not name a stream")
        }
        #expect(Set(LanguageOperator.all.map(\.name)).count == LanguageOperator.all.count, "a name twice in the table")
    }

    @Test func docsOperatorsHasARowForEveryOperatorWithItsRACName() throws {
        let rows = try Self.operatorRows()
        #expect(rows.count >= 100, "the tables were found")
        for entry in LanguageOperator.all {
            let named = rows.filter { $0.names.contains(entry.name) }
            #expect(!named.isEmpty, "docs/OPERATORS.md has no row for the language's `\(entry.name)`: add one (RAC `\(entry.rac)`)")
            guard !named.isEmpty else { continue }
            #expect(
                named.contains { $0.rac.contains(entry.rac) },
                "docs/OPERATORS.md's row for `\(entry.name)` does not give RAC's `\(entry.rac)` (it says \(named.map(\.rac)))"
            )
        }
    }

    /// Every place CONTRIBUTING.md's "Adding an operator" names, and whether it knows `name`.
    static func places() throws -> [(place: String, knows: (String) -> Bool)] {
        let data = try Data(contentsOf: root.appendingPathComponent("Public/gallery/entries.json"))
        let gallery = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = (gallery["groups"] as? [[String: Any]] ?? []).flatMap { $0["entries"] as? [[String: Any]] ?? [] }
        #expect(entries.count >= 50, "the gallery was read")
        let programs = entries.map { ($0["id"] as? String ?? "", $0["program"] as? String ?? "") }
        let operators = try text("docs/OPERATORS.md")
        let notDrawn = operators.range(of: "### Not drawn, and why").map { String(operators[$0.upperBound...]) } ?? ""
        let pipelines = try text("docs/PIPELINES.md")
        let api = try text("docs/API.md")
        let findDocs =
            api.range(of: "*Candidates* (`Sources/PlaygroundServer/Find/FindCandidates.swift`)").map { String(api[$0.lowerBound...].prefix(2_500)) }
            ?? ""
        let findCode = try text("Sources/PlaygroundServer/Find/FindCandidates.swift")
        let contract = try text("Tests/ReactiveTests/OperatorContractTests.swift")
        // The contract suite's names: `("map", …`, `("materialize+dematerialize", …`.
        let contractNames = Set(
            contract.components(separatedBy: "(\"").dropFirst()
                .flatMap { $0.prefix { $0 != "\"" }.split(separator: "+").map(String.init) }
        )
        let parity = OperatorParityTests.cases.map(\.program)
        let calls: (String) -> [String] = { name in [".\(name)(", ".\(name) {"] }
        return [
            ("docs/PIPELINES.md's list of operators", { pipelines.contains("`\($0)") }),
            ("a row of docs/OPERATORS.md", { name in (try? operatorRows())?.contains { $0.names.contains(name) } ?? false }),
            (
                "an entry of Public/gallery/entries.json, or a line of docs/OPERATORS.md's \"Not drawn, and why\"",
                { name in
                    notDrawn.contains("`\(name)")
                        || programs.contains { id, program in id == name || calls(name).contains { program.contains($0) } }
                }
            ),
            ("a candidate of FindCandidates.swift, or its \"Not tried\" list", { findCode.contains("\"\($0)\"") || findCode.contains("`\($0)`") }),
            ("docs/API.md's find candidates (tried or not tried)", { findDocs.contains("`\($0)") }),
            ("a row of OperatorContractTests (Tests/ReactiveTests)", { contractNames.contains($0) }),
            ("a case of OperatorParityTests", { name in parity.contains { program in calls(name).contains { program.contains($0) } } }),
        ]
    }

    /// Places an operator may be missing from, and why: operator → place (a prefix of its name
    /// in ``places()``) → the reason.
    static let exemptions: [String: [String: String]] = [
        "repeat": ["a row of OperatorContractTests": "it resubscribes at each completion, so completion cannot end it"],
        "replay": ["a row of OperatorContractTests": "its connection outlives its subscribers (RAC's replay): MulticastTests"],
        "replayLast": ["a row of OperatorContractTests": "its connection outlives its subscribers (RAC's replayLast): MulticastTests"],
    ]

    /// Each operator of the table is known by every place that must know it; the message names
    /// the operator and each place that lacks it.
    @Test func everyPlaceThatMustKnowAnOperatorKnowsIt() throws {
        let places = try Self.places()
        for entry in LanguageOperator.all {
            let exempt = Self.exemptions[entry.name] ?? [:]
            let missing = places.filter { place in !place.knows(entry.name) && !exempt.keys.contains { place.place.hasPrefix($0) } }
                .map(\.place)
            #expect(missing.isEmpty, "`\(entry.name)` is missing from: \(missing.joined(separator: "; "))")
        }
    }

    /// The walk above fails for a name no place knows (so it cannot pass by reading nothing).
    @Test func theWalkNamesWhatIsMissing() throws {
        let places = try Self.places()
        #expect(places.allSatisfy { !$0.knows("debounceUntilQuiet") })
        #expect(places.allSatisfy { $0.knows("throttle") })
        for (name, reasons) in Self.exemptions {
            #expect(LanguageOperator.byName[name] != nil, "an exemption for `\(name)`, which the table lacks")
            for place in reasons.keys {
                #expect(places.contains { $0.place.hasPrefix(place) }, "an exemption from \(place), which is no place")
                #expect(places.first { $0.place.hasPrefix(place) }?.knows(name) != true, "`\(name)` needs no exemption from \(place)")
            }
        }
    }
}
