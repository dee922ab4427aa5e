import Foundation
import Logging
import Testing

@testable import PlaygroundServer

/// `GET /api/lessons`: the lesson files of the page's folder, in the order of their numbers.
@Suite("Lesson index")
struct LessonIndexTests {
    var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }

    @Test func theLessonsAreListedInFileOrder() throws {
        let index = LessonIndex(publicRoot: APITests.publicFolder, logger: logger)
        let files = try FileManager.default.contentsOfDirectory(atPath: APITests.publicFolder + "/lessons").filter { $0.hasSuffix(".json") }.sorted()
        #expect(index.lessons.map(\.path) == files.map { "/lessons/\($0)" })
        #expect(index.lessons.first?.id == "reading-marbles")
    }

    @Test func aFileThatCannotBeReadOrRepeatsAnIdIsLeftOut() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lessons-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("lessons")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(#"{"id": "b", "title": "B"}"#.utf8).write(to: folder.appendingPathComponent("02-b.json"))
        try Data(#"{"id": "a", "title": "A"}"#.utf8).write(to: folder.appendingPathComponent("01-a.json"))
        try Data(#"{"id": "a", "title": "A again"}"#.utf8).write(to: folder.appendingPathComponent("03-a.json"))
        try Data("not json".utf8).write(to: folder.appendingPathComponent("04-broken.json"))
        try Data(#"{"id": "c", "title": "C"}"#.utf8).write(to: folder.appendingPathComponent("notes.json"))
        let index = LessonIndex(publicRoot: root.path, logger: logger)
        #expect(index.lessons.map(\.id) == ["a", "b"])
        #expect(index.lessons.map(\.title) == ["A", "B"])
    }
}
