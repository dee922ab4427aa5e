/// What a room's class answered, question by question and vote by vote (docs/API.md, "The
/// report"): `GET /api/rooms/{rid}/report`, as JSON or CSV, for the teacher. A question is kept
/// here when another replaces it (or the course moves on), and the one asked now is added as it
/// stands; bounded in bytes (``maximumBytes``): past it the oldest questions go, and the report
/// says how many.
struct RoomReport: Encodable, Sendable {
    struct Answer: Encodable, Sendable {
        let student: Int
        let name: String
        let marbles: String
        let right: Bool
        /// What a wrong answer missed (``Misconception``).
        let misconception: Misconception?
    }

    struct Round: Encodable, Sendable {
        let round: Int
        let answers: [Answer]
    }

    struct Question: Encodable, Sendable {
        let id: Int
        let stream: String
        let from: Double
        let frame: Int
        let frames: Int
        let truth: String
        let revealed: Bool
        let rounds: [Round]

        /// About the bytes it takes, written.
        var bytes: Int {
            200 + stream.utf8.count + truth.utf8.count
                + rounds.reduce(0) { $0 + $1.answers.reduce(0) { $0 + 80 + $1.name.utf8.count + $1.marbles.utf8.count } }
        }
    }

    let title: String
    let questions: [Question]
    /// How many of the oldest questions were let go to stay within ``maximumBytes``.
    let dropped: Int

    /// The most bytes of questions a room keeps for its report: a class of 200 answering 40
    /// questions twice fits.
    static let maximumBytes = 8 * 1024 * 1024

    /// `question` with its votes' answers (`first`, then `tally`), the students named as now.
    static func question(_ question: RoomQuestion, first: ClassTally?, tally: ClassTally, names: [Int: String]) -> Question {
        let rounds = ([first].compactMap { $0 } + [tally]).enumerated().map { index, tally in
            Round(
                round: index + 1,
                answers: tally.all.map { answer in
                    Answer(
                        student: answer.student,
                        name: names[answer.student] ?? "(removed)",
                        marbles: answer.marbles,
                        right: answer.right,
                        misconception: answer.misconception
                    )
                }
            )
        }
        return Question(
            id: question.id,
            stream: question.stream,
            from: question.from,
            frame: question.frame,
            frames: question.frames,
            truth: question.truth,
            revealed: question.isRevealed,
            rounds: rounds
        )
    }

    /// The report as CSV (RFC 4180): one row an answer — question, round, student, name, answer,
    /// right, misconception, truth. A cell a spreadsheet would read as a formula (`=`, `+`, `-`,
    /// `@` first, as answers' `-` are) starts with `'`, as OWASP advises; the JSON has them as given.
    var csv: String {
        var lines = ["question,round,student,name,answer,right,misconception,truth"]
        for question in questions {
            for round in question.rounds {
                for answer in round.answers {
                    let cells = [
                        String(question.id), String(round.round), String(answer.student), answer.name, answer.marbles,
                        answer.right ? "true" : "false", answer.misconception?.rawValue ?? "", question.truth,
                    ]
                    lines.append(cells.map(Self.cell).joined(separator: ","))
                }
            }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// One CSV cell: quoted when it holds a comma, a quote or a line break; `'` first when a
    /// spreadsheet would take it for a formula.
    static func cell(_ text: String) -> String {
        let safe = ["=", "+", "-", "@", "\t", "\r"].contains { text.hasPrefix($0) } ? "'" + text : text
        guard safe.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return safe }
        return "\"" + safe.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
