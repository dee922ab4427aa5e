import Foundation
import Testing

/// docs/ARCHITECTURE.md's Layers table is the module graph of `Package.swift`: each module's row
/// lists exactly the project's modules it depends on, and no shipped product links the test
/// library.
@Suite("The module graph as the docs draw it")
struct ModuleGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The code spans of a table cell: "`A`, `B`" → ["A", "B"].
    static func spans(_ cell: Substring) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The Layers table: module → the project's modules it imports.
    static func layers() throws -> [String: Set<String>] {
        let text = try text("docs/ARCHITECTURE.md")
        guard let start = text.range(of: "## Layers"), let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex) else {
            return [:]
        }
        var table: [String: Set<String>] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 3, let module = spans(cells[1]).first else { continue }
            table[module] = Set(spans(cells[2]))
        }
        return table
    }

    /// `Package.swift`'s targets but the tests: target → the project's targets it depends on
    /// (packages' products left out).
    static func targets() throws -> [String: Set<String>] {
        let manifest = try text("Package.swift")
        let kinds = [".target(", ".executableTarget(", ".systemLibrary("]
        var starts: [String.Index] = []
        var searchFrom = manifest.startIndex
        while let found = kinds.compactMap({ manifest.range(of: $0, range: searchFrom..<manifest.endIndex) }).min(by: {
            $0.lowerBound < $1.lowerBound
        }) {
            starts.append(found.lowerBound)
            searchFrom = found.upperBound
        }
        let testStart = manifest.range(of: ".testTarget(")?.lowerBound ?? manifest.endIndex
        var graph: [String: Set<String>] = [:]
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : testStart
            let body = String(manifest[start..<min(end, testStart)])
            guard let name = body.firstMatch(of: /name: "(\w+)"/)?.output.1 else { continue }
            var dependencies: Set<String> = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.output.1 {
                let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
                for match in withoutProducts.matches(of: /"(\w+)"/) { dependencies.insert(String(match.output.1)) }
            }
            graph[String(name)] = dependencies
        }
        return graph
    }

    @Test func theLayersTableIsPackageSwift() throws {
        let (table, targets) = (try Self.layers(), try Self.targets())
        #expect(targets.count >= 12, "Package.swift's targets were read: \(targets.keys.sorted())")
        #expect(
            Set(table.keys) == Set(targets.keys),
            "modules in the table only: \(Set(table.keys).subtracting(targets.keys)); in Package.swift only: \(Set(targets.keys).subtracting(table.keys))"
        )
        for (module, imports) in targets {
            #expect(
                table[module] == imports,
                "docs/ARCHITECTURE.md says `\(module)` imports \(table[module]?.sorted() ?? []); Package.swift says \(imports.sorted())"
            )
        }
    }

    @Test func noShippedProductLinksTheTestLibrary() throws {
        let targets = try Self.targets()
        func closure(of target: String) -> Set<String> {
            var seen: Set<String> = []
            var pending = [target]
            while let next = pending.popLast() {
                for dependency in targets[next] ?? [] where seen.insert(dependency).inserted { pending.append(dependency) }
            }
            return seen
        }
        for shipped in targets.keys where shipped != "ReactiveTesting" {
            #expect(!closure(of: shipped).contains("ReactiveTesting"), "`\(shipped)` links ReactiveTesting, a library for tests")
        }
    }
}
