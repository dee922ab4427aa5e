import Foundation
import MarbleNotation
import MicroHTTP
import Pipelines
import Scenarios

/// The lesson validator: every rule of docs/LESSONS.md, checked by running the lesson as the page
/// runs it (`POST /api/marbles`, `POST /api/scenarios/{id}/marbles`) — the files of
/// `Public/lessons/` (the test command holds each to it) and lessons written on the page, as they
/// are typed (`POST /api/lessons/check`) and when they are kept (`POST /api/links`).
enum LessonCheck {
    /// One broken rule: the field it is about (`challenge.solution`) and what is wrong, in words.
    struct Problem: Encodable, Equatable, Sendable {
        let field: String
        let message: String
    }

    /// The most input rows, known wrong answers and paragraphs a lesson has: a lesson is a page
    /// to read, and each row and answer is a run of the check.
    static let maxRows = 8
    static let maxWrongAnswers = 8
    static let maxParagraphs = 12
    /// The values one run of a lesson may draw, in bytes: a lesson draws a few short rows.
    static let answerBytes = 256 * 1024

    /// What the check found, and what the lesson's program and solution draw, written as a
    /// learner writes marbles (for an author to confirm as the expected answers).
    struct Report: Encodable, Sendable {
        let problems: [Problem]
        let drawn: Drawn?
    }

    /// The streams a lesson draws, as `expected` and `subscriptions` would write them.
    struct Drawn: Encodable, Sendable {
        struct Streams: Encodable, Sendable {
            /// Each stream in marble notation, a value written with the lesson's letters or a digit.
            var expected: [String: String] = [:]
            /// Each stream's subscriptions, and those of the signals inside it (`out·marbles`).
            var subscriptions: [String: [String]] = [:]
        }
        /// The lesson's program on its rows.
        var lesson = Streams()
        /// The reference solution on the challenge's rows.
        var challenge = Streams()
        /// Letters for values no row names, to add to the lesson's `values`.
        var values: [String: JSONValue] = [:]
    }

    /// Checks the lesson in `bytes` (JSON), running its programs by `rules`.
    static func check(_ bytes: [UInt8], rules: ProgramRules = ProgramRules(), answerBytes: Int = LessonCheck.answerBytes) -> Report {
        var problems: [Problem] = []
        guard let lesson = read(bytes, problems: &problems) else { return Report(problems: problems, drawn: nil) }
        checkForm(lesson, problems: &problems)
        // Runs what can run even while other rules are broken: an author writes a lesson a field at
        // a time, and confirms the answers from what its program draws.
        let runs = LessonRuns(lesson: lesson, rules: rules, answerBytes: answerBytes)
        let drawn = runs.check(problems: &problems)
        return Report(problems: problems, drawn: drawn)
    }

    /// The lesson in `bytes`, or nil with why not: not JSON, a field unknown or of the wrong type.
    static func read(_ bytes: [UInt8], problems: inout [Problem]) -> Lesson? {
        guard case .success(.object(let fields)) = JSONValue.read(bytes) else {
            problems.append(Problem(field: "", message: "A lesson is a JSON object (docs/LESSONS.md)."))
            return nil
        }
        for name in fields.keys.sorted() where !Lesson.fields.contains(name) {
            problems.append(Problem(field: String(name.prefix(40)), message: "is not a field of a lesson."))
        }
        if case .object(let challenge) = fields["challenge"] {
            for name in challenge.keys.sorted() where !Lesson.challengeFields.contains(name) {
                problems.append(Problem(field: "challenge.\(name.prefix(40))", message: "is not a field of a challenge."))
            }
        }
        if case .array(let questions) = fields["machine"] {
            for (index, item) in questions.enumerated() {
                guard case .object(let question) = item else { continue }
                for name in question.keys.sorted() where !MachineQuestion.fields.contains(name) {
                    problems.append(Problem(field: "machine[\(index)].\(name.prefix(40))", message: "is not a field of a question on the machine."))
                }
            }
        }
        do {
            return try JSONDecoder().decode(Lesson.self, from: Data(bytes))
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            problems.append(Problem(field: path(context.codingPath), message: "has the wrong type (docs/LESSONS.md gives each field's)."))
        } catch let DecodingError.keyNotFound(key, context) {
            problems.append(Problem(field: path(context.codingPath + [key]), message: "is missing."))
        } catch {
            problems.append(Problem(field: "", message: "The lesson cannot be read."))
        }
        return nil
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    /// The rules that need no run: fields present and of their form, letters that say one thing.
    static func checkForm(_ lesson: Lesson, problems: inout [Problem]) {
        func require(_ value: String?, _ field: String, _ what: String) {
            if (value ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                problems.append(Problem(field: field, message: "is missing: \(what)."))
            }
        }
        require(lesson.id, "id", "the lesson's id, lower-case letters, digits and -")
        if let id = lesson.id, !id.isEmpty,
            id.count > 60 || id.contains(where: { !("a"..."z").contains($0) && !("0"..."9").contains($0) && $0 != "-" })
        {
            problems.append(Problem(field: "id", message: "is 1 to 60 lower-case letters, digits and -."))
        }
        require(lesson.title, "title", "what the lesson is called")
        if let title = lesson.title,
            title.utf8.count > API.maxBytes(forCharacters: API.maxLinkTitle) || title.count > API.maxLinkTitle || title.contains(where: \.isNewline)
        {
            let bytes = API.maxBytes(forCharacters: API.maxLinkTitle)
            problems.append(Problem(field: "title", message: "is one line of at most \(API.maxLinkTitle) characters, \(bytes) bytes of UTF-8."))
        }
        require(lesson.rac, "rac", "RAC 2.x's names for what it teaches")
        require(lesson.result, "result", "what the learner reads after running it")
        require(lesson.predict, "predict", "the stream the learner predicts")
        let paragraphs = lesson.explanation ?? []
        if paragraphs.isEmpty || paragraphs.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) || paragraphs.count > maxParagraphs {
            problems.append(Problem(field: "explanation", message: "is 1 to \(maxParagraphs) paragraphs of text."))
        }
        checkRows(lesson.inputs, "inputs", problems: &problems)
        checkTeaching(lesson, problems: &problems)
        if let machine = lesson.machine {
            if machine.isEmpty || machine.count > MachineQuestion.maximumPerLesson {
                problems.append(
                    Problem(field: "machine", message: "is 1 to \(MachineQuestion.maximumPerLesson) questions on the machine, or absent.")
                )
            }
            if lesson.scenario != nil {
                problems.append(Problem(field: "machine", message: "asks about a program: a lesson on a scenario has none."))
            }
            for (index, question) in machine.prefix(MachineQuestion.maximumPerLesson).enumerated() {
                problems += question.formProblems("machine[\(index)]")
            }
        }
        switch (lesson.program, lesson.scenario) {
        case (nil, nil), (.some, .some):
            problems.append(Problem(field: "program", message: "A lesson has a program, or a scenario (with its code) — one of them."))
        case (nil, let scenario?):
            if Catalogue.scenario(withID: scenario) == nil { problems.append(Problem(field: "scenario", message: "names no built-in scenario.")) }
            require(lesson.code, "code", "the lines of the scenario's Swift source the lesson is about")
            require(lesson.challenge?.program, "challenge.program", "a lesson on a scenario gives the program its challenge starts from")
        case (let program?, nil):
            require(program, "program", "the program the lesson runs")
        }
        if let predict = lesson.predict, !predict.isEmpty, lesson.expected?[predict] == nil {
            problems.append(Problem(field: "expected", message: "has no answer for `\(predict.prefix(40))`, the stream to predict."))
        }
        guard let challenge = lesson.challenge else {
            return problems.append(Problem(field: "challenge", message: "is missing: what the learner changes, and its check."))
        }
        require(challenge.task, "challenge.task", "what to change")
        require(challenge.solution, "challenge.solution", "the reference solution")
        checkRows(challenge.inputs, "challenge.inputs", problems: &problems)
        if (challenge.expected ?? [:]).isEmpty {
            problems.append(Problem(field: "challenge.expected", message: "is missing: what the solution's streams send on the challenge's rows."))
        }
        let wrong = challenge.wrong ?? []
        if wrong.isEmpty || wrong.count > maxWrongAnswers {
            problems.append(
                Problem(field: "challenge.wrong", message: "lists 1 to \(maxWrongAnswers) known wrong answers, each a program the check must fail.")
            )
        }
        // A letter of the lesson's own names what the streams send: never another value than a row's.
        let rows = Lesson.letters(of: (lesson.inputs ?? []) + (challenge.inputs ?? []))
        for (letter, value) in (lesson.values ?? [:]).sorted(by: { $0.key < $1.key }) {
            if letter.count != 1 || !letter.allSatisfy({ $0.isASCII && $0.isLetter }) {
                problems.append(Problem(field: "values", message: "`\(letter.prefix(40))` is not one letter."))
            } else if let row = rows[letter], EventJSON.json(row) != EventJSON.json(value) {
                problems.append(Problem(field: "values", message: "The letter \(letter) says two things: a row sends \(EventJSON.json(row)) for it."))
            }
        }
    }

    /// `teaches` names the language's operators and sources; `ahead` marks operators by the id
    /// of the lesson that teaches them (the course's order is ``CourseOrder``'s).
    private static func checkTeaching(_ lesson: Lesson, problems: inout [Problem]) {
        for name in lesson.teaches ?? [] where !PipelineLanguage.isTeachable(name) {
            problems.append(
                Problem(field: "teaches", message: "`\(name.prefix(40))` is no operator or source of the language (`flatMap(.latest)`, `filter`).")
            )
        }
        for (name, id) in lesson.ahead ?? [:] where !PipelineLanguage.isTeachable(name) || id.isEmpty {
            problems.append(Problem(field: "ahead", message: "`\(name.prefix(40))` is no operator of the language, or names no lesson."))
        }
    }

    private static func checkRows(_ rows: [Lesson.Row]?, _ field: String, problems: inout [Problem]) {
        guard let rows, (1...maxRows).contains(rows.count) else {
            return problems.append(Problem(field: field, message: "is 1 to \(maxRows) input rows, {\"name\": \"a\", \"marbles\": \"-a-b|\"}."))
        }
        var names = Set<String>()
        for (index, row) in rows.enumerated() where !names.insert(row.name).inserted {
            problems.append(Problem(field: "\(field)[\(index)].name", message: "`\(row.name.prefix(40))` names two rows."))
        }
    }
}

extension API {
    /// 415 unless the body is JSON; 429 past the client's rate of marble runs (a check runs the
    /// lesson's programs, so it shares `--marble-runs-per-second` with `POST /api/marbles`).
    func limitingLessonChecks(_ request: inout HTTPRequest) -> HTTPResponse? {
        if let type = InputBody.mediaType(of: request), type != "application/json" {
            return PlaygroundError(.unsupportedMediaType, "Send the lesson as application/json; not \(type).").response
        }
        return Self.rateLimited(request, by: marbleRuns, "Too many lessons checked from your address; slow down.")
    }

    /// `POST /api/lessons/check`: the rules the lesson in the body breaks (none: it may be kept),
    /// and what its program and solution draw, for an author to confirm (on a program thread).
    func checkLesson(_ request: HTTPRequest) -> HTTPResponse {
        guard case .success(.object) = JSONValue.read(request.body) else {
            return PlaygroundError(.invalidJSON, "Send a lesson: one JSON object (docs/LESSONS.md).").response
        }
        return .json(LessonCheck.check(request.body, rules: programRules, answerBytes: LessonCheck.answerBytes))
    }
}
