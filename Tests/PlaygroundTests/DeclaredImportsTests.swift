import Foundation
import Testing

/// Every module a target's sources import is one `Package.swift` names among that target's
/// dependencies: a module reached only through another's dependencies builds today and breaks
/// when that other module drops it, and the Layers table (``ModuleGraphTests``) would not show it.
@Suite("Every import declared in Package.swift")
struct DeclaredImportsTests {
    /// The toolchain's modules and the C library: imported by any target without a declaration.
    static let platform: Set<String> = [
        "Foundation", "CoreFoundation", "Dispatch", "Glibc", "Darwin", "Testing", "XCTest", "Synchronization", "_Concurrency",
    ]

    struct Target {
        let name: String
        let folder: String
        /// The project's targets and the packages' products it names as dependencies.
        let dependencies: Set<String>
    }

    /// Every target of `Package.swift` with sources, tests included.
    static func targets() throws -> [Target] {
        let manifest = try ModuleGraphTests.text("Package.swift")
        let kinds = [(".target(", "Sources"), (".executableTarget(", "Sources"), (".testTarget(", "Tests"), (".systemLibrary(", "")]
        var starts: [(String.Index, String)] = []
        for (kind, folder) in kinds {
            var from = manifest.startIndex
            while let found = manifest.range(of: kind, range: from..<manifest.endIndex) {
                starts.append((found.lowerBound, folder))
                from = found.upperBound
            }
        }
        starts.sort { $0.0 < $1.0 }
        var targets: [Target] = []
        for (index, (start, folder)) in starts.enumerated() where !folder.isEmpty {
            let end = index + 1 < starts.count ? starts[index + 1].0 : manifest.endIndex
            let body = String(manifest[start..<end])
            guard let name = body.firstMatch(of: /name: "(\w+)"/)?.output.1 else { continue }
            var dependencies: Set<String> = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.output.1 {
                for match in list.matches(of: /\.product\(name: "(\w+)"/) { dependencies.insert(String(match.output.1)) }
                let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
                for match in withoutProducts.matches(of: /"(\w+)"/) { dependencies.insert(String(match.output.1)) }
            }
            targets.append(Target(name: String(name), folder: "\(folder)/\(name)", dependencies: dependencies))
        }
        return targets
    }

    /// The modules `folder`'s Swift files import, each with a file that imports it.
    static func imports(under folder: String) -> [String: String] {
        let base = ModuleGraphTests.root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [:] }
        var found: [String: String] = [:]
        for case let url as URL in walker where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for match in text.matches(
                of: /(?m)^(?:@testable |@_exported |@preconcurrency |internal |public |private )*import (?:struct |class |enum |func )?(\w+)/
            ) {
                found[String(match.output.1)] = url.lastPathComponent
            }
        }
        return found
    }

    @Test func everyImportedModuleIsADeclaredDependency() throws {
        let targets = try Self.targets()
        #expect(targets.count >= 20, "Package.swift's targets were read: \(targets.map(\.name))")
        for target in targets {
            let imports = Self.imports(under: target.folder)
            #expect(!imports.isEmpty || target.name.hasPrefix("C"), "\(target.folder) was read")
            for (module, file) in imports.sorted(by: { $0.key < $1.key }) where !Self.platform.contains(module) && module != target.name {
                #expect(
                    target.dependencies.contains(module),
                    "\(target.folder)/…/\(file) imports \(module), which Package.swift does not name among \(target.name)'s dependencies"
                )
            }
        }
    }

    @Test func theExecutableImportsOnlyTheLibraryAndItsArguments() throws {
        let imports = Set(Self.imports(under: "Sources/Playground").keys)
        #expect(imports == ["ArgumentParser", "PlaygroundServer"], "the executable imports \(imports.sorted())")
    }
}
