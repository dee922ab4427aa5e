import Foundation
import Locking
import MarbleNotation
import Scenarios

/// A question a room's teacher asks: what `stream` sends in the `frames` frames of `frame`
/// milliseconds from the virtual instant `from`, if nothing more is input. Its answer is known
/// when it is asked: the room's journal replayed (``SessionReplay``) and run `frames × frame` on.
struct RoomQuestion: Sendable {
    let id: Int
    let stream: String
    /// Virtual milliseconds at which the window starts: the room's clock when it was asked.
    let from: Double
    let frame: Int
    let frames: Int
    /// The letters the class writes values with (a lesson's, then each new value the answer
    /// sends, so that a learner knows how to write it): letter → value.
    let letters: [String: JSONValue]
    /// The answer, in marble notation with ``letters``.
    let truth: String
    /// The answer as events.
    let truthEvents: [LessonRuns.Read]
    /// What the other named streams (the rows the asked one reads) sent in the window, in its
    /// frames: what ``Misconception`` compares a wrong answer with.
    var sources: [[LessonRuns.Read]] = []
    /// The lesson's input rows in the window, written at its frame with its letters: the material
    /// every student predicts from, drawn above the answer. A row the frame cannot hold is left out.
    var rows: [Row] = []
    struct Row: Sendable, Encodable {
        let name: String
        let marbles: String
    }
    var isRevealed = false
    /// The vote: 1, then 2 once the teacher asks again after the class has talked it over (Peer
    /// Instruction: vote alone, discuss, vote again). The first vote's tally is kept apart.
    var round = 1
    /// The teacher's notes to the students whose wrong answer missed one thing, shown to them at
    /// the reveal (``Room/note(_:for:)``).
    var notes: [Misconception: String] = [:]
    /// The most characters of a note (``API/displayText(_:maximum:)``: four bytes each at most).
    static let maximumNoteLength = 200
    /// The most other streams kept as ``sources``.
    static let maximumSources = 8

    /// The most frames a question spans (a lesson's rows have at most 200 characters).
    static let maximumFrames = 200
    /// The most bytes of the name of a stream asked about (a program's names have no bound).
    static let maximumStreamBytes = 100
    /// The most bytes the letters' values take, written as JSON: every snapshot of the room
    /// carries them (``Room/maximumSnapshotBytes``).
    static let maximumLetterBytes = 8 * 1024

    /// Why a question cannot be asked: its answer cannot be written within a snapshot's bounds.
    enum AskError: Error {
        /// The answer's row is longer than a student may write (``maximumAnswerLength``).
        case answerTooLong(Int)
        /// The letters' values take more than ``maximumLetterBytes``.
        case valuesTooLarge(Int)
    }

    /// Whether the question can be asked: its answer fits what a student may write, and its
    /// letters what every snapshot carries.
    func checkBounds() -> AskError? {
        if truth.utf8.count > Self.maximumAnswerLength { return .answerTooLong(truth.utf8.count) }
        let bytes = letters.reduce(0) { $0 + $1.key.utf8.count + EventJSON.json($1.value).utf8.count + 4 }
        return bytes > Self.maximumLetterBytes ? .valuesTooLarge(bytes) : nil
    }
    /// The most bytes of an answer (a row is ASCII: as many characters).
    static let maximumAnswerLength = 400

    /// The question asked of `session`'s `stream` over its journal `steps` (reaching `from`),
    /// answered by running them again; `letters` are the room's own (a lesson's rows').
    static func ask(
        id: Int,
        stream: String,
        frame: Int,
        frames: Int,
        in definition: SessionDefinition,
        settings: ScenarioSettings,
        steps: [SessionJournal.Step],
        from: Double,
        letters known: [String: JSONValue],
        inputs: [String] = []
    ) -> RoomQuestion {
        let events = Lock<[RecordedEvent]>([])
        let inputEvents = Lock<[String: [RecordedEvent]]>([:])
        let others = Lock<[String: [LessonRuns.Read]]>([:])
        let end = from + Double(frame * frames)
        SessionReplay.run(definition, settings: settings, steps: steps, beyond: Double(frame * frames)) { name, report, at in
            guard case .event(let event, _) = report else { return }
            let t = Double(at / .microseconds(1)) / 1_000
            guard t >= from, t < end else { return }
            guard name == stream else {
                // A named stream's (not a stage's, not a source inside a stream), in frames.
                guard !name.contains("·") else { return }
                if inputs.contains(name) {
                    inputEvents.withLock { $0[name, default: []].append(Self.recorded(event, of: name, at: t - from, seq: $0[name]?.count ?? 0)) }
                }
                let read = LessonRuns.Read(event, frame: Int(((t - from) / Double(frame)).rounded(.down)))
                others.withLock { others in
                    guard others[name] != nil || others.count < maximumSources else { return }
                    others[name, default: []].append(read)
                }
                return
            }
            events.withLock {
                $0.append(
                    RecordedEvent(
                        seq: $0.count + 1,
                        stream: name,
                        kind: event.eventKind,
                        valueJSON: EventJSON.valueJSON(of: event),
                        t: t - from,
                        causes: [],
                        subscription: nil,
                        thread: "session"
                    )
                )
            }
        }
        var drawingLetters = ProgramDrawing.Letters(letters: known.compactMap { key, value in key.first.map { (letter: $0, json: value) } })
        let drawing = ProgramDrawing.Drawing(
            name: stream,
            events: events.withLock { $0 },
            subscriptions: [],
            frame: Double(frame),
            letters: &drawingLetters
        )
        var letters = known
        var new: [String: JSONValue] = [:]
        let truth = LessonRuns.written(drawing, letters: &letters, new: &new)
        // The inputs, written as the truth is, at the question's own frame (no finer one).
        let rows = inputs.compactMap { name -> Row? in
            let row = ProgramDrawing.Drawing(
                name: name,
                events: inputEvents.withLock { $0[name] ?? [] },
                subscriptions: [],
                frame: Double(frame),
                letters: &drawingLetters
            )
            guard row.frame == Double(frame), row.marbles != nil else { return nil }
            return Row(name: name, marbles: LessonRuns.written(row, letters: &letters, new: &new))
        }
        return RoomQuestion(
            id: id,
            stream: stream,
            from: from,
            frame: frame,
            frames: frames,
            letters: letters,
            truth: truth,
            truthEvents: LessonRuns.read(truth, letters: letters) ?? [],
            sources: others.withLock { $0.sorted { $0.key < $1.key }.map(\.value) },
            rows: rows
        )
    }

    /// `event` of `stream` as the drawing of a row takes it, at `t` milliseconds into the window.
    private static func recorded(_ event: StreamEvent, of stream: String, at t: Double, seq: Int) -> RecordedEvent {
        RecordedEvent(
            seq: seq + 1,
            stream: stream,
            kind: event.eventKind,
            valueJSON: EventJSON.valueJSON(of: event),
            t: t,
            causes: [],
            subscription: nil,
            thread: "session"
        )
    }

    /// Why an answer is not one.
    enum AnswerError: Error {
        case notMarbles
        case tooLong
        case pastTheWindow
    }

    /// `text` read as an answer to this question: its events, within the question's frames.
    func read(_ text: String) -> Result<[LessonRuns.Read], AnswerError> {
        // Bytes, not characters: a row is ASCII, and one `Character` may be any number of bytes.
        guard text.utf8.count <= Self.maximumAnswerLength else { return .failure(.tooLong) }
        guard let events = LessonRuns.read(text, letters: letters) else { return .failure(.notMarbles) }
        guard events.allSatisfy({ $0.frame < frames }) else { return .failure(.pastTheWindow) }
        return .success(events)
    }
}

/// What a class answered to one question, kept as answers arrive: each student's answer, the
/// distinct answers with their counts, how many are right, and how many answers put an event in
/// each frame (the heat map). An answer changed is taken out of each count and the new one put in:
/// no count is rebuilt from all answers.
struct ClassTally: Sendable {
    /// A distinct answer: one student's writing of it, how many gave it, and whether it is right.
    struct Group: Sendable, Encodable {
        let marbles: String
        var count: Int
        let right: Bool
        /// What a wrong answer missed (``Misconception``); nil for the right one.
        let misconception: Misconception?
    }

    /// The wrong answers that missed one thing, whatever their marbles, and how many gave them.
    struct MisconceptionGroup: Sendable, Encodable {
        let group: Misconception
        let sentence: String
        let count: Int
        /// The teacher's note to them, if any.
        var note: String? = nil
    }

    private struct Answer: Sendable {
        let marbles: String
        let key: String
        let right: Bool
        let frames: Set<Int>
        let misconception: Misconception?
    }

    private var answers: [Int: Answer] = [:]
    private(set) var groups: [String: Group] = [:]
    private var missed: [Misconception: Int] = [:]
    private(set) var right = 0
    private(set) var heat: [Int]

    init(frames: Int) {
        heat = Array(repeating: 0, count: frames)
    }

    var answered: Int { answers.count }

    /// `student`'s answer, written `marbles`, read as `events`; the truth is `truth`, and what
    /// the asked stream reads sent `sources` (a wrong answer's ``Misconception`` compares them).
    mutating func set(_ student: Int, marbles: String, events: [LessonRuns.Read], truth: [LessonRuns.Read], sources: [[LessonRuns.Read]] = []) {
        remove(student)
        let key = events.map { "\($0.frame)\($0.kind)\($0.value ?? "")" }.joined(separator: "\u{1F}")
        let right = events == truth
        // One answer is classified once: the same marbles again join its group.
        let misconception = right ? nil : groups[key]?.misconception ?? Misconception.classify(events, truth: truth, sources: sources)
        let answer = Answer(marbles: marbles, key: key, right: right, frames: Set(events.map(\.frame)), misconception: misconception)
        answers[student] = answer
        groups[key, default: Group(marbles: marbles, count: 0, right: right, misconception: misconception)].count += 1
        if let misconception { missed[misconception, default: 0] += 1 }
        if answer.right { self.right += 1 }
        for frame in answer.frames where frame < heat.count { heat[frame] += 1 }
    }

    /// Takes `student`'s answer out of every count.
    mutating func remove(_ student: Int) {
        guard let old = answers.removeValue(forKey: student) else { return }
        groups[old.key]?.count -= 1
        if groups[old.key]?.count == 0 { groups[old.key] = nil }
        if let misconception = old.misconception {
            missed[misconception, default: 0] -= 1
            if missed[misconception] == 0 { missed[misconception] = nil }
        }
        if old.right { right -= 1 }
        for frame in old.frames where frame < heat.count { heat[frame] -= 1 }
    }

    /// `student`'s answer as written, whether it is right, and what it missed if wrong.
    func answer(of student: Int) -> (marbles: String, right: Bool, misconception: Misconception?)? {
        answers[student].map { ($0.marbles, $0.right, $0.misconception) }
    }

    /// The wrong answers by what they missed, the most given first (at most one per kind).
    var misconceptions: [MisconceptionGroup] {
        missed.map { MisconceptionGroup(group: $0.key, sentence: $0.key.sentence, count: $0.value) }
            .sorted { ($0.count, $1.group.rawValue) > ($1.count, $0.group.rawValue) }
    }

    /// Each student's answer: right or not.
    var verdicts: [Int: Bool] { answers.mapValues(\.right) }

    /// Every answer, by student number: for the room's report.
    var all: [(student: Int, marbles: String, right: Bool, misconception: Misconception?)] {
        answers.sorted { $0.key < $1.key }.map { ($0.key, $0.value.marbles, $0.value.right, $0.value.misconception) }
    }

    /// The distinct wrong answers, the most given first (at most `limit`).
    func wrongGroups(limit: Int) -> [Group] {
        Array(groups.values.filter { !$0.right }.sorted { ($0.count, $1.marbles) > ($1.count, $0.marbles) }.prefix(limit))
    }
}
