import Foundation
import Logging

/// The course's lessons, one file each in `Public/lessons/` (docs/LESSONS.md): `NN-id.json`, in
/// the order of their numbers, so a teacher adds or reorders lessons by adding or renaming files.
/// Read once, at startup, for `GET /api/lessons`; a file that cannot be read is left out, and said
/// so in the log (the test command checks every lesson in full).
struct LessonIndex: Sendable {
    /// One lesson as the path lists it.
    struct Entry: Encodable, Sendable {
        let id: String
        let title: String
        /// Where the page loads the whole lesson.
        let path: String
    }

    let lessons: [Entry]
    /// Each lesson in full, by id: what a room made from a lesson runs.
    let byID: [String: Lesson]

    /// No lessons (tests that do not need any).
    init() {
        lessons = []
        byID = [:]
    }

    /// Reads the lessons in `publicRoot/lessons`.
    init(publicRoot: String, logger: Logger) {
        let folder = URL(fileURLWithPath: publicRoot).appendingPathComponent("lessons")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.range(of: #"^[0-9]{2,3}-[a-z0-9-]+\.json$"#, options: .regularExpression) != nil }
            .sorted()
        var lessons: [Entry] = []
        var byID: [String: Lesson] = [:]
        var ids = Set<String>()
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
                let header = try? JSONDecoder().decode(Header.self, from: data), ids.insert(header.id).inserted
            else {
                logger.error("lesson left out: it cannot be read, or its id is taken", metadata: ["file": "\(name)"])
                continue
            }
            lessons.append(Entry(id: header.id, title: header.title, path: "/lessons/\(name)"))
            byID[header.id] = try? JSONDecoder().decode(Lesson.self, from: data)
        }
        self.lessons = lessons
        self.byID = byID
    }

    private struct Header: Decodable {
        let id: String
        let title: String
    }
}
