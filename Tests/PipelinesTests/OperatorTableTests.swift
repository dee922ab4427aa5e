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

    @Test func docsPipelinesListsEveryOperator() throws {
        let text = try Self.text("docs/PIPELINES.md")
        let missing = LanguageOperator.all.filter { !text.contains("`\($0.name)") }.map(\.name)
        #expect(missing.isEmpty, "docs/PIPELINES.md (\"Names a program can use\") lists no `\(missing.joined(separator: "`, `"))`")
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

    /// Each operator is drawn by an entry of the gallery, or docs/OPERATORS.md says why not.
    @Test func theGalleryDrawsEveryOperatorOrTheDocsSayWhyNot() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Public/gallery/entries.json"))
        let gallery = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = (gallery["groups"] as? [[String: Any]] ?? []).flatMap { $0["entries"] as? [[String: Any]] ?? [] }
        #expect(entries.count >= 50, "the gallery was read")
        let programs = entries.map { ($0["id"] as? String ?? "", $0["program"] as? String ?? "") }
        let docs = try Self.text("docs/OPERATORS.md")
        let notDrawn = docs.range(of: "### Not drawn, and why").map { String(docs[$0.upperBound...]) } ?? ""
        for entry in LanguageOperator.all {
            let drawn = programs.contains { id, program in
                id == entry.name || program.contains(".\(entry.name)(") || program.contains(".\(entry.name) {")
            }
            #expect(
                drawn || notDrawn.contains("`\(entry.name)"),
                "no gallery entry (Public/gallery/entries.json) draws `\(entry.name)`, and docs/OPERATORS.md's \"Not drawn, and why\" does not say why"
            )
        }
    }
}
