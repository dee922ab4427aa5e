import Foundation
import Testing

/// The house's size and shape rules (CONTRIBUTING.md, "House rules"): short files with one job, one reader
/// and writer of marble notation on the page, and no view borrowing another's prototype.
@Suite("House rules: file sizes and one home per job")
struct HouseRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    /// Every file under `folder` whose name ends with one of `suffixes`, with its text.
    static func files(under folder: String, endingWith suffixes: [String]) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let url as URL in walker where suffixes.contains(where: { url.lastPathComponent.hasSuffix($0) }) {
            let text = try String(contentsOf: url, encoding: .utf8)
            found.append((url.path.replacingOccurrences(of: root.path + "/", with: ""), text))
        }
        return found
    }

    static func lineCount(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }

    @Test func noSourceFileIsOver400Lines() throws {
        let sources = try Self.files(under: "Sources", endingWith: [".swift"])
        #expect(sources.count > 100, "the sources were read")
        for (path, text) in sources {
            #expect(Self.lineCount(text) <= 400, "\(path) has \(Self.lineCount(text)) lines")
        }
    }

    /// The executable is only the process's door: what it serves is the `PlaygroundServer`
    /// library, which the tests build from the same options.
    @Test func theExecutableIsThin() throws {
        let executable = try Self.files(under: "Sources/Playground", endingWith: [".swift"])
        #expect(!executable.isEmpty, "the executable was read")
        for (path, text) in executable {
            #expect(Self.lineCount(text) <= 150, "\(path) has \(Self.lineCount(text)) lines")
        }
        let total = executable.map { Self.lineCount($0.text) }.reduce(0, +)
        #expect(total < 600, "the executable has \(total) lines")
    }

    /// The page's modules, its markup and its style: data files (the gallery's entries, the
    /// OpenAPI document, the lessons) are not modules.
    @Test func noPageModuleIsOver400Lines() throws {
        let page = try Self.files(under: "Public", endingWith: [".js", ".html", ".css"])
        #expect(page.count > 20, "the page was read")
        for (path, text) in page {
            #expect(Self.lineCount(text) <= 400, "\(path) has \(Self.lineCount(text)) lines")
        }
    }

    @Test func aSessionsFilesAreEachUnder300Lines() throws {
        let session = try Self.files(under: "Sources/PlaygroundServer", endingWith: [".swift"]).filter { path, _ in
            ["Session.swift", "SessionWatchers.swift", "SessionInputs.swift", "EventLog.swift"].contains { path.hasSuffix("/" + $0) }
        }
        #expect(session.count == 4)
        for (path, text) in session {
            #expect(Self.lineCount(text) < 300, "\(path) has \(Self.lineCount(text)) lines")
        }
    }

    @Test func thePageReadsMarbleNotationInOneModuleAndBorrowsNoPrototype() throws {
        let modules = try Self.files(under: "Public", endingWith: [".js"])
        let readers = modules.filter { $0.text.contains("function parseRow") || $0.text.contains("function renderRow") }.map(\.path)
        #expect(readers == ["Public/lib/marble-notation.js"], "marble notation is read and written in \(readers)")
        let borrowers = modules.filter { $0.text.contains(".prototype") }.map(\.path)
        #expect(borrowers.isEmpty, "\(borrowers) reach into a prototype")
    }
}
