import Foundation
import Testing

/// docs/PERFORMANCE.md opens with the current figures: one section per area, each saying the date,
/// the commit and the command that made its table, every command one that exists; the analysis
/// and a short history follow, and nothing after the history.
@Suite("docs/PERFORMANCE.md: current tables first")
struct PerformanceDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    /// The page's `## ` sections: title and text.
    static func sections() throws -> [(title: String, text: String)] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/PERFORMANCE.md"), encoding: .utf8)
        return text.components(separatedBy: "\n## ").dropFirst().map { section in
            let title = String(section.prefix { $0 != "\n" })
            return (title, String(section.dropFirst(title.count)))
        }
    }

    @Test func eachAreaSaysWhenWhatAndHowItsTableWasMade() throws {
        let sections = try Self.sections()
        let areas = sections.prefix { $0.title != "Where the time and memory go" }
        #expect(areas.count >= 6, "the areas were read: \(sections.map(\.title))")
        #expect(sections.map(\.title).suffix(2) == ["Where the time and memory go", "History"])
        for (title, text) in areas {
            let opening = String(text.drop { $0 == "\n" }.prefix { $0 != "|" })
            #expect(opening.contains(/20\d\d-\d\d-\d\d/), "\"\(title)\" says no date before its table")
            #expect(opening.contains(/\b[0-9a-f]{7}\b/), "\"\(title)\" says no commit before its table")
            let commands = opening.matches(of: /Benchmarks\/run-[a-z-]+\.sh/).map { String($0.output) }
            #expect(!commands.isEmpty, "\"\(title)\" names no command before its table")
            for command in commands {
                #expect(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(command).path),
                    "\"\(title)\" names \(command), which does not exist"
                )
            }
            #expect(text.contains("| --- |"), "\"\(title)\" has no table")
        }
    }
}
