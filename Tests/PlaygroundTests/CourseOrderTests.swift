import Foundation
import Pipelines
import Testing

@testable import PlaygroundServer

/// The course in order: no lesson uses an operator before a lesson has taught it, unless it says
/// it shows it ahead (docs/LESSONS.md, "The course").
@Suite("The course in order")
struct CourseOrderTests {
    /// The page's lessons, in the order of their files.
    static func course() throws -> [(file: String, lesson: Lesson)] {
        let folder = APITests.publicFolder + "/lessons"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        return try files.map { file in
            (file, try JSONDecoder().decode(Lesson.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
        }
    }

    @Test func everyOperatorIsTaughtBeforeItIsUsed() throws {
        let course = try Self.course()
        #expect(CourseOrder.problems(in: course.map(\.lesson)) == [])
    }

    @Test func everyLessonNamesWhatItTeachesInTheLanguagesSpelling() throws {
        for (file, lesson) in try Self.course() {
            let taught = lesson.teaches ?? []
            #expect(!taught.isEmpty, "\(file)")
            for name in taught { #expect(PipelineLanguage.isTeachable(name), "\(file) teaches `\(name)`, no name of the language") }
        }
    }

    /// A copy of the course with a lesson moved before the one that teaches what it uses fails,
    /// and says which operator and which lesson.
    @Test func aLessonMovedAheadOfItsTeacherBreaksTheOrder() throws {
        var lessons = try Self.course().map(\.lesson)
        let cold = try #require(lessons.firstIndex { $0.id == "cold-signals" })
        let moved = lessons.remove(at: cold)
        lessons.insert(moved, at: 1)
        let problems = CourseOrder.problems(in: lessons)
        #expect(problems.contains { $0.lesson == "cold-signals" && $0.message.contains("`flatMap(.merge)` before it is taught") })
    }

    @Test func aLessonThatForgetsWhatItTeachesBreaksTheOrder() throws {
        let course = try Self.course()
        let lessons = try course.map { file, lesson in
            guard lesson.id == "switch-to-latest" else { return lesson }
            var object = try #require(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: APITests.publicFolder + "/lessons/" + file)))
                    as? [String: Any]
            )
            object["teaches"] = ["flatMap(.latest)"]
            return try JSONDecoder().decode(Lesson.self, from: JSONSerialization.data(withJSONObject: object))
        }
        let problems = CourseOrder.problems(in: lessons)
        #expect(problems.contains { $0.message.contains("`flatMap(.merge)` before it is taught") })
    }

    @Test func aMarkAheadMustNameALaterLessonThatTeachesIt() throws {
        var lessons = try Self.course().map(\.lesson)
        let data = Data(
            #"{"id": "first", "program": "out = a.flatMap(.latest) { $0 }", "teaches": ["take"], "ahead": {"flatMap(.latest)": "nowhere"}}"#.utf8
        )
        lessons.insert(try JSONDecoder().decode(Lesson.self, from: data), at: 0)
        let problems = CourseOrder.problems(in: lessons)
        #expect(problems.contains { $0.lesson == "first" && $0.message.contains("no later lesson teaching it") })
    }
}
