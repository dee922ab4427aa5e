import MicroHTTP

extension API {
    /// The course's lessons and the lesson validator (docs/API.md, "Lessons").
    func addLessonRoutes(to router: inout Router) {
        router.add(.get, "/api/lessons") { [lessons] _ in
            .json(LessonList(lessons: lessons.lessons))
        }
        router.add(.post, "/api/lessons/check", preflight: limitingLessonChecks) { request in
            onProgramThread(request) { checkLesson(request) }
        }
    }
}
