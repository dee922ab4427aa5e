import Scenarios

/// What a room runs, read from `POST /api/rooms`'s `from`: a lesson of the course (its program on
/// its rows, or its scenario), a program's text, or a built-in scenario.
struct RoomSource: Sendable {
    let definition: SessionDefinition
    let title: String
    let origin: Room.Origin
    /// The letters of a lesson's rows, with the values they send.
    let letters: [String: JSONValue]
    /// A lesson's own question: its `predict` stream, over its expected row's frames.
    let suggested: Room.SuggestedQuestion?
    /// A lesson's input rows, by name: what a question's material draws (``RoomQuestion/rows``).
    var inputs: [String] = []

    /// Why `from` makes no room.
    enum Refusal: Error {
        case invalid(String)
        case program(ProgramRefusal)
    }

    /// A scenario's or a program's room (`kind` `scenario` or `program`); lessons come through ``lesson(_:rules:)``.
    static func read(kind: String, _ text: String, rules: ProgramRules) -> Result<RoomSource, Refusal> {
        switch kind {
        case "scenario":
            guard let type = Catalogue.scenario(withID: text) else {
                return .failure(.invalid("There is no scenario '\(text.prefix(40))'; GET /api/scenarios lists them."))
            }
            return .success(
                RoomSource(
                    definition: .scenario(type),
                    title: type.description.title,
                    origin: Room.Origin(kind: kind, id: text),
                    letters: [:],
                    suggested: nil
                )
            )
        case "program":
            switch ProgramSession.definition(from: text, rules: rules) {
            case .failure(let refusal): return .failure(.program(refusal))
            case .success(let (definition, _)):
                return .success(
                    RoomSource(definition: definition, title: "A program", origin: Room.Origin(kind: kind, id: nil), letters: [:], suggested: nil)
                )
            }
        default:
            return .failure(.invalid(#"from is one of {"lesson": ID}, {"course": LINK}, {"program": TEXT} or {"scenario": ID}."#))
        }
    }

    /// A lesson's room: its program on its rows (or its scenario), its letters, and its own question.
    static func lesson(_ entry: RoomCourse.Entry, rules: ProgramRules) -> Result<RoomSource, Refusal> {
        let lesson = entry.lesson
        let rows = lesson.inputs ?? []
        let definition: SessionDefinition
        if let scenario = lesson.scenario {
            guard let type = Catalogue.scenario(withID: scenario) else { return .failure(.invalid("The lesson's scenario is missing.")) }
            definition = .scenario(type)
        } else {
            switch ProgramSession.definition(from: Lesson.program(rows, lesson.program ?? ""), rules: rules) {
            case .failure(let refusal): return .failure(.program(refusal))
            case .success(let (made, _)): definition = made
            }
        }
        var letters = Lesson.letters(of: rows)
        for (letter, value) in lesson.values ?? [:] where letters[letter] == nil { letters[letter] = value }
        let suggested = lesson.predict.map { stream in
            let expected = lesson.expected?[stream] ?? ""
            let frames = (LessonRuns.read(expected, letters: letters)?.last?.frame).map { $0 + 1 } ?? 20
            return Room.SuggestedQuestion(stream: stream, frames: min(max(frames, expected.count), RoomQuestion.maximumFrames))
        }
        return .success(
            RoomSource(
                definition: definition,
                title: lesson.title ?? entry.id,
                origin: Room.Origin(kind: "lesson", id: entry.id),
                letters: letters,
                suggested: suggested,
                inputs: rows.map(\.name)
            )
        )
    }
}
