import Pipelines

extension LessonRuns {
    /// Each question on the machine run as the page runs it (`POST /api/marbles?inside=AT` of the
    /// question's program, or the lesson's, on the lesson's rows): its `answer` must be what the
    /// real run's objects count (``MachineQuestion/counted(in:)``).
    func checkMachine(_ rows: [Lesson.Row], _ problems: inout [Problem]) {
        for (index, question) in (lesson.machine ?? []).prefix(MachineQuestion.maximumPerLesson).enumerated() {
            let field = "machine[\(index)]"
            guard let at = question.at, let answer = question.answer, question.formProblems(field).isEmpty,
                let program = question.program ?? lesson.program
            else { continue }
            if question.program != nil, !checksClean(rows, program, "\(field).program", &problems) { continue }
            let text = Lesson.program(rows, program)
            guard case .success(let run) = ProgramDrawing.run(text, until: nil, rules: rules, answerBytes: answerBytes, inside: (at, 0)),
                let graph = run.inside
            else {
                problems.append(Problem(field: "\(field).program", message: "does not run on the lesson's rows."))
                continue
            }
            if graph.stoppedAt != nil {
                problems.append(Problem(field: field, message: "The run makes more objects than one inspection keeps."))
                continue
            }
            switch question.counted(in: graph) {
            case .failure(let problem):
                problems.append(Problem(field: field, message: problem.message))
            case .success(let counted) where counted != answer:
                problems.append(
                    Problem(field: "\(field).answer", message: "is \(answer), but the run's objects at \(number(at)) ms count \(counted).")
                )
            case .success:
                break
            }
        }
    }
}
