import Pipelines

/// The course in order (docs/LESSONS.md, "The course"): every operator a lesson's program,
/// starting program or solution calls is taught by that lesson or an earlier one (its `teaches`),
/// or marked as shown ahead (`ahead`: operator to the id of the later lesson that teaches it).
/// A learner who follows the path never meets an operator no lesson has explained yet.
enum CourseOrder {
    /// One break of the order: which lesson, and what is wrong.
    struct Problem: Equatable, CustomStringConvertible {
        let lesson: String
        let message: String

        var description: String { "\(lesson): \(message)" }
    }

    /// Every break of the order in `lessons`, taken in the course's order.
    static func problems(in lessons: [Lesson]) -> [Problem] {
        var problems: [Problem] = []
        var taught = Set<String>()
        let teacher = Dictionary(
            lessons.enumerated().flatMap { index, lesson in (lesson.teaches ?? []).map { ($0, index) } },
            uniquingKeysWith: { first, _ in first }
        )
        let position = Dictionary(lessons.enumerated().compactMap { index, lesson in lesson.id.map { ($0, index) } }, uniquingKeysWith: { a, _ in a })
        for (index, lesson) in lessons.enumerated() {
            let id = lesson.id ?? "lesson \(index + 1)"
            if lesson.teaches?.isEmpty ?? true {
                problems.append(Problem(lesson: id, message: "names nothing it teaches (`teaches`)."))
            }
            taught.formUnion(lesson.teaches ?? [])
            for (name, later) in (lesson.ahead ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let at = position[later], at > index, lessons[at].teaches?.contains(name) == true else {
                    problems.append(
                        Problem(lesson: id, message: "marks `\(name)` as taught ahead in `\(later)`, which is no later lesson teaching it.")
                    )
                    continue
                }
            }
            for name in operators(of: lesson) where !taught.contains(name) && lesson.ahead?[name] == nil {
                let where_ = teacher[name].map { "lesson \($0 + 1) teaches it" } ?? "no lesson teaches it"
                problems.append(Problem(lesson: id, message: "uses `\(name)` before it is taught (\(where_)): reorder, or mark it in `ahead`."))
            }
        }
        return problems
    }

    /// The operators a learner sees the lesson use: its program's, its challenge's starting
    /// program's and its solution's (a known wrong answer is never shown).
    static func operators(of lesson: Lesson) -> [String] {
        let programs = [lesson.program, lesson.challenge?.program, lesson.challenge?.solution].compactMap { $0 }
        var names: [String] = []
        for text in programs {
            for name in PipelineLanguage.operatorsCalled(in: PipelineLanguage.parse(text).program) where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }
}
