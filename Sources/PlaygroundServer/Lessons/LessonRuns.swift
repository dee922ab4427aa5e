import Foundation
import MarbleNotation
import Pipelines
import Scenarios

/// The rules of a lesson that only running it can check (docs/LESSONS.md, "The check"): its
/// programs check clean, its expected answers are what the server draws (by value and frame, each
/// event in the frame its time falls in, and writable at the lesson's frame), the solution draws the challenge's expected
/// streams, and the unchanged program and every known wrong answer fail the page's check.
struct LessonRuns {
    typealias Problem = LessonCheck.Problem

    let lesson: Lesson
    let rules: ProgramRules
    let answerBytes: Int

    /// One event of a row as the page compares it: its frame, `n`/`|`/`#`, and its value's JSON.
    struct Read: Equatable, Sendable {
        let frame: Int
        let kind: Character
        let value: String?
    }

    /// Runs what the lesson has of its programs — an author's lesson is checked as it is typed, so
    /// any part may be missing yet (the form's rules say so) — adds what breaks a rule to
    /// `problems`, and answers what its program and solution draw (nil when neither runs).
    func check(problems: inout [Problem]) -> LessonCheck.Drawn? {
        let rows = lesson.inputs ?? []
        let challenge = lesson.challenge
        let challengeRows = challenge?.inputs ?? []
        guard rows.count <= LessonCheck.maxRows, challengeRows.count <= LessonCheck.maxRows else { return nil }
        if let scenario = lesson.scenario, Catalogue.scenario(withID: scenario) == nil { return nil }
        let starting = challenge?.program ?? lesson.program
        let startingField = challenge?.program == nil ? "program" : "challenge.program"
        var clean = true
        if let program = lesson.program, !program.isEmpty, !rows.isEmpty { clean = checksClean(rows, program, "program", &problems) }
        if clean, let starting, !starting.isEmpty, !challengeRows.isEmpty {
            clean = checksClean(challengeRows, starting, startingField, &problems)
        }
        guard clean else { return nil }
        var drawn = LessonCheck.Drawn()
        var letters = Lesson.letters(of: rows).merging(lesson.values ?? [:]) { row, _ in row }
        let hasProgram = !(lesson.program ?? "").isEmpty || lesson.scenario != nil
        let run = rows.isEmpty || !hasProgram ? nil : draw(rows, lesson.program, lesson.scenario, "program", &problems)
        if let run {
            checkLesson(run, letters: letters, &problems)
            drawn.lesson = written(run, letters: &letters, new: &drawn.values)
            checkMachine(rows, &problems)
        }
        let solution = challenge?.solution ?? ""
        let solved = challengeRows.isEmpty || solution.isEmpty ? nil : draw(challengeRows, solution, nil, "challenge.solution", &problems)
        if let solved, let challenge {
            checkChallenge(challenge, solved, starting: starting.map { (startingField, $0) }, &problems)
            drawn.challenge = written(solved, letters: &letters, new: &drawn.values)
        }
        return run == nil && solved == nil ? nil : drawn
    }

    /// The lesson's own rules on its run: its expected answers, its subscriptions, its inner signals.
    private func checkLesson(_ run: ProgramDrawing.Answer, letters: [String: JSONValue], _ problems: inout [Problem]) {
        compare(lesson.expected ?? [:], with: run, letters: letters, field: "expected", &problems)
        if let subscriptions = lesson.subscriptions {
            let made = Self.subscriptions(of: subscriptions.stream, in: run)
            if !Self.sameSubscriptions(made ?? [], subscriptions.expected) {
                let said = made.map { $0.joined(separator: " ") } ?? "no stream of the program"
                problems.append(
                    Problem(
                        field: "subscriptions",
                        message: "`\(subscriptions.stream)` is subscribed \(said), not \(subscriptions.expected.joined(separator: " "))."
                    )
                )
            }
        }
        if let inner = lesson.inner, Self.subscriptions(of: inner, in: run) == nil {
            problems.append(Problem(field: "inner", message: "`\(inner.prefix(40))` is no signal inside a stream of the program (as `out·marbles`)."))
        }
    }

    /// The challenge's rules on the solution's run: it draws `challenge.expected`, holds the
    /// subscriptions compared, and the unchanged program and every known wrong answer fail it.
    private func checkChallenge(
        _ challenge: Lesson.Challenge,
        _ solved: ProgramDrawing.Answer,
        starting: (field: String, program: String)?,
        _ problems: inout [Problem]
    ) {
        let rows = challenge.inputs ?? []
        let letters = Lesson.letters(of: rows).merging(lesson.values ?? [:]) { row, _ in row }
        let goal = challenge.expected ?? [:]
        compare(goal, with: solved, letters: letters, field: "challenge.expected", &problems)
        for name in challenge.subscriptions ?? [] where Self.subscriptions(of: name, in: solved) == nil {
            problems.append(
                Problem(field: "challenge.subscriptions", message: "holds `\(name.prefix(40))`'s subscriptions, which the solution lacks.")
            )
        }
        guard !goal.isEmpty else { return }  // nothing compared yet: every answer would pass
        let answers =
            (starting.map { [$0] } ?? [])
            + (challenge.wrong ?? []).prefix(LessonCheck.maxWrongAnswers).enumerated().map { ("challenge.wrong[\($0.offset)]", $0.element) }
        for (field, program) in answers where !program.isEmpty {
            guard let tried = draw(rows, program, nil, field, &problems) else { continue }
            if passes(tried, solved, challenge) {
                problems.append(
                    Problem(field: field, message: "passes the challenge, which it should fail: its rows and what it compares do not test the point.")
                )
            }
        }
    }

    /// Whether `rows` then `program` checks without a diagnostic (a warning too: a lesson's program
    /// is an example to read).
    func checksClean(_ rows: [Lesson.Row], _ program: String, _ field: String, _ problems: inout [Problem]) -> Bool {
        let diagnostics = ProgramCheck.diagnostics(of: Lesson.program(rows, program), hints: rules.hints)
        guard let first = diagnostics.first else { return true }
        problems.append(Problem(field: field, message: "does not check clean: \(Self.located(first, after: rows.count))"))
        return false
    }

    /// A diagnostic's message with its line in the program as written (the rows come first).
    private static func located(_ diagnostic: Diagnostic, after rows: Int) -> String {
        let line = diagnostic.line - rows
        let message = diagnostic.message + (diagnostic.hint.map { " — \($0)" } ?? "")
        return line >= 1 ? "line \(line): \(message)" : "in the rows: \(message)"
    }

    /// The streams `program` (or the built-in `scenario`) draws on `rows`, or nil with why not.
    private func draw(
        _ rows: [Lesson.Row],
        _ program: String?,
        _ scenario: String?,
        _ field: String,
        _ problems: inout [Problem]
    ) -> ProgramDrawing.Answer? {
        let answer: ProgramDrawing.Answer
        if let scenario, let type = Catalogue.scenario(withID: scenario) {
            let rowsJSON = JSONValue.object(Dictionary(uniqueKeysWithValues: rows.map { ($0.name, .string($0.marbles)) }))
            let body = EventJSON.json(.object(["inputs": rowsJSON, "values": .object(Lesson.letters(of: rows))]))
            switch ScenarioDrawing.Query.read(Array(body.utf8), for: type.description) {
            case .failure(.invalid(let message)):
                problems.append(Problem(field: "inputs", message: message))
                return nil
            case .failure(.unreadable):
                problems.append(Problem(field: "inputs", message: "cannot be read as the scenario's inputs."))
                return nil
            case .success(let query):
                answer = ScenarioDrawing.run(type, query, until: nil, answerBytes: answerBytes)
            }
        } else {
            switch ProgramDrawing.run(Lesson.program(rows, program ?? ""), until: nil, rules: rules, answerBytes: answerBytes) {
            case .failure(let refusal):
                let first = refusal.diagnostics.first.map { Self.located($0, after: rows.count) } ?? "it cannot run"
                problems.append(Problem(field: field, message: "does not run: \(first)"))
                return nil
            case .success(let drawn):
                answer = drawn
            }
        }
        if let truncation = answer.truncation {
            problems.append(Problem(field: field, message: "is cut short when run: \(truncation.message)"))
            return nil
        }
        return answer
    }

    /// Adds a problem for each stream of `expected` that `answer` does not draw as written.
    private func compare(
        _ expected: [String: String],
        with answer: ProgramDrawing.Answer,
        letters: [String: JSONValue],
        field: String,
        _ problems: inout [Problem]
    ) {
        for (name, marbles) in expected.sorted(by: { $0.key < $1.key }) {
            guard let stream = answer.streams.first(where: { $0.name == name }) else {
                problems.append(Problem(field: "\(field).\(name.prefix(40))", message: "names no stream the program draws."))
                continue
            }
            guard let wanted = Self.read(marbles, letters: letters) else {
                problems.append(Problem(field: "\(field).\(name.prefix(40))", message: "`\(marbles.prefix(80))` is not marble notation."))
                continue
            }
            if stream.frame != answer.frame {
                let note = stream.note ?? "it is written at another frame"
                problems.append(
                    Problem(
                        field: "\(field).\(name)",
                        message: "`\(name)` cannot be written at the lesson's frame of \(number(answer.frame)) ms: \(note)"
                    )
                )
            } else if Self.read(stream, frame: answer.frame) != wanted {
                var known = letters
                var unnamed: [String: JSONValue] = [:]
                let sent = Self.written(stream, letters: &known, new: &unnamed)
                let named = unnamed.sorted { $0.key < $1.key }.map { "\($0.key) = \(EventJSON.json($0.value))" }
                problems.append(
                    Problem(
                        field: "\(field).\(name)",
                        message: "`\(name)` sends \(sent)\(named.isEmpty ? "" : " (\(named.joined(separator: ", ")))"), not \(marbles)."
                    )
                )
            }
        }
    }

    /// The page's challenge check (`challengeDifferences`): every stream of `challenge.expected`
    /// sends the solution's events on the solution's threads, and every stream of
    /// `challenge.subscriptions` is subscribed as the solution's is.
    private func passes(_ candidate: ProgramDrawing.Answer, _ solved: ProgramDrawing.Answer, _ challenge: Lesson.Challenge) -> Bool {
        for name in (challenge.expected ?? [:]).keys {
            guard let mine = candidate.streams.first(where: { $0.name == name }), let goal = solved.streams.first(where: { $0.name == name }),
                Self.read(mine, frame: candidate.frame) == Self.read(goal, frame: solved.frame),
                mine.events.map(\.thread) == goal.events.map(\.thread)
            else { return false }
        }
        return (challenge.subscriptions ?? []).allSatisfy { name in
            Self.sameSubscriptions(Self.subscriptions(of: name, in: candidate) ?? [], Self.subscriptions(of: name, in: solved) ?? [])
        }
    }

    // MARK: Reading and writing rows

    /// A drawn stream's events in frames of `frame` (each in the frame its time falls in), with
    /// their values: what a prediction written at that frame is compared with.
    static func read(_ stream: ProgramDrawing.Drawing, frame: Double) -> [Read] {
        stream.events.map { event in
            let at = Marbles.frameIndex(of: event.t, frame: frame, placement: .flooring) ?? 0
            switch event.kind {
            case .next: return Read(frame: at, kind: "n", value: event.valueJSON.map(canonical))
            case .error: return Read(frame: at, kind: "#", value: nil)
            default: return Read(frame: at, kind: "|", value: nil)
            }
        }
    }

    /// A row as the page reads a prediction: a letter is its value in `letters`, else itself as
    /// text; a digit a number; `(…)` one frame. Nil when it is not marble notation.
    static func read(_ text: String, letters: [String: JSONValue]) -> [Read]? {
        read(text) { letter in letters[letter].map(EventJSON.json) }
    }

    /// `text` read by the one grammar of marble notation the page's reader (`parseRow`,
    /// Public/lib/marble-notation.js) also reads — ``Marbles/parse(_:values:)`` with ASCII letters and
    /// digits for values — so that nothing the server takes is a row the page cannot draw.
    private static func read(_ text: String, valueOf: (String) -> String?) -> [Read]? {
        guard let entries = try? Marbles.parse(text, values: Self.isValueSymbol) else { return nil }
        return entries.map { entry in
            switch entry.symbol {
            case "|", "#": return Read(frame: entry.frame, kind: entry.symbol, value: nil)
            default:
                let letter = String(entry.symbol)
                let value = valueOf(letter) ?? (entry.symbol.wholeNumberValue.map(String.init) ?? EventJSON.json(.string(letter)))
                return Read(frame: entry.frame, kind: "n", value: value)
            }
        }
    }

    /// A value's symbol in a row: an ASCII letter or digit, as the page's reader takes them.
    static func isValueSymbol(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }

    /// JSON as ``EventJSON`` writes it (keys sorted), so that two writings of one value compare equal.
    private static func canonical(_ json: String) -> String {
        guard case .success(let value) = JSONValue.read(Array(json.utf8)) else { return json }
        return EventJSON.json(value)
    }

    /// Every stream of `answer` written as a lesson writes it.
    private func written(
        _ answer: ProgramDrawing.Answer,
        letters: inout [String: JSONValue],
        new: inout [String: JSONValue]
    ) -> LessonCheck.Drawn.Streams {
        var streams = LessonCheck.Drawn.Streams()
        for stream in answer.streams {
            streams.expected[stream.name] = Self.written(stream, letters: &letters, new: &new)
            streams.subscriptions[stream.name] = stream.subscriptions
            for source in stream.sources { streams.subscriptions[source.name] = source.subscriptions }
        }
        return streams
    }

    /// `stream`'s notation written with `letters`: a whole number from 0 to 9 as its digit, a
    /// value a letter names as that letter, any other value as a letter added to `new` (and to
    /// `letters`).
    static func written(_ stream: ProgramDrawing.Drawing, letters: inout [String: JSONValue], new: inout [String: JSONValue]) -> String {
        let values = Dictionary(stream.values.map { ($0.letter, $0.json) }) { first, _ in first }
        var text = ""
        for character in stream.marbles ?? "" {
            guard let json = values[character], case .success(let value) = JSONValue.read(Array(json.utf8)) else {
                text.append(character)
                continue
            }
            if case .int(let number) = value, (0...9).contains(number) {
                text += String(number)
            } else if value == .string(String(character)), letters[String(character)] == nil {
                text.append(character)  // a letter that sends itself, as a row without values writes it
            } else if let named = letters.filter({ EventJSON.json($0.value) == EventJSON.json(value) }).keys.min() {
                text += named
            } else {
                let letter =
                    letters[String(character)] == nil && character.isLetter
                    ? String(character) : Marbles.valueSymbols.lazy.filter(\.isLetter).map(String.init).first { letters[$0] == nil } ?? "?"
                letters[letter] = value
                new[letter] = value
                text += letter
            }
        }
        return text
    }

    /// A stream's subscriptions, or those of a signal inside one (`out·marbles`); nil when the
    /// program has no such stream.
    static func subscriptions(of name: String, in answer: ProgramDrawing.Answer) -> [String]? {
        let owner = name.split(separator: "·").first.map(String.init) ?? name
        guard let stream = answer.streams.first(where: { $0.name == owner }) else { return nil }
        return owner == name ? stream.subscriptions : stream.sources.first { $0.name == name }?.subscriptions
    }

    /// Whether two lists of subscription marbles say the same spans (as the page compares them).
    static func sameSubscriptions(_ first: [String], _ second: [String]) -> Bool {
        first.count == second.count
            && zip(first, second).allSatisfy { one, other in
                guard let a = try? Marbles.parseSubscription(one), let b = try? Marbles.parseSubscription(other) else { return one == other }
                return a == b
            }
    }
}
