import Foundation
import Testing

@testable import Scenarios

@Suite("The pipeline's source beside its streams")
struct SourceListingTests {
    @Test(arguments: Catalogue.scenarios.map { ObjectIdentifier($0) })
    func eachEntryCarriesItsOwnFileAndItDefinesEveryStream(_ id: ObjectIdentifier) throws {
        let scenario = try #require(Catalogue.scenarios.first { ObjectIdentifier($0) == id })
        let source = scenario.description.source
        #expect(source.swift.contains("public final class \(scenario): Scenario"), "\(source.path) is \(scenario)'s file")
        for stream in scenario.description.streams {
            // `stream("name", …)` or `watch("name", …)`, the name maybe on the next line (as
            // swift-format breaks a long call)
            let call = try Regex("(stream|watch)\\(\\s*\"\(stream.name)\"")
            #expect(source.swift.contains(call), "\(source.path) defines \(stream.name)")
        }
    }

    @Test func theEmbeddedTextIsTheCompiledFileByteForByte() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for scenario in Catalogue.scenarios {
            let source = scenario.description.source
            let onDisk = try String(contentsOf: root.appendingPathComponent(source.path), encoding: .utf8)
            #expect(source.swift == onDisk, "\(source.path)")
        }
    }
}
