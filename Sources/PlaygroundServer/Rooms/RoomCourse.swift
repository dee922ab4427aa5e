import Foundation
import Store

/// The lessons a room follows: one lesson, or a course's in its order — built-in lessons by id and
/// lessons kept by links, each read in full when the room opens (on the store's thread), so that
/// moving to the next one needs no store.
struct RoomCourse: Sendable {
    /// One lesson of it: the id it was named by, and the lesson.
    struct Entry: Sendable {
        let id: String
        let lesson: Lesson
    }

    /// The course's title (none for a single lesson).
    let title: String?
    let lessons: [Entry]

    /// Why a course cannot be followed.
    enum Refusal: Error {
        case notFound(String)
        case invalid(String)
    }

    /// Whether reading `id` as a `kind` (`lesson`, `course`) needs the store: a course always, a
    /// lesson unless it is built in.
    static func needsStore(kind: LinkKind, id: String, lessons: LessonIndex) -> Bool {
        kind == .course || (kind == .lesson && lessons.byID[id] == nil && LinkID.isWellFormed(id))
    }

    /// The built-in lesson `id`, as a course of one.
    static func builtIn(_ id: String, lessons: LessonIndex) -> RoomCourse? {
        lessons.byID[id].map { RoomCourse(title: nil, lessons: [Entry(id: id, lesson: $0)]) }
    }

    /// The lesson link or the course link `id`, read from `store` with every lesson it lists.
    static func read(kind: LinkKind, _ id: String, lessons: LessonIndex, store: any LinkStore) throws(StoreError) -> Result<RoomCourse, Refusal> {
        guard LinkID.isWellFormed(id), let link = try store.link(id) else {
            return .failure(.notFound("There is no \(kind.rawValue) '\(id.prefix(40))' here: a built-in lesson's id or a link's."))
        }
        switch (kind, link.kind) {
        case (.lesson, .lesson):
            guard let lesson = decode(link.content) else { return .failure(.invalid("The lesson kept by that link cannot be read.")) }
            return .success(RoomCourse(title: nil, lessons: [Entry(id: id, lesson: lesson)]))
        case (.course, .course):
            guard let object = (try? JSONSerialization.jsonObject(with: Data(link.content.utf8))) as? [String: Any],
                let list = object["lessons"] as? [String], (1...API.maxCourseLessons).contains(list.count)
            else { return .failure(.invalid("The course kept by that link cannot be read.")) }
            var entries: [Entry] = []
            for item in list {
                if let lesson = lessons.byID[item] {
                    entries.append(Entry(id: item, lesson: lesson))
                } else if LinkID.isWellFormed(item), let kept = try store.link(item), kept.kind == .lesson, let lesson = decode(kept.content) {
                    entries.append(Entry(id: item, lesson: lesson))
                } else {
                    return .failure(.invalid("Lesson \(entries.count + 1) of the course, \(item.prefix(40)), is no lesson here."))
                }
            }
            return .success(RoomCourse(title: link.title, lessons: entries))
        default:
            return .failure(.notFound("The link '\(id)' keeps a \(link.kind.rawValue), not a \(kind.rawValue)."))
        }
    }

    private static func decode(_ content: String) -> Lesson? {
        try? JSONDecoder().decode(Lesson.self, from: Data(content.utf8))
    }
}
