import Foundation
import MicroHTTP

/// What each person sees of a room (``RoomView``), as the room's streams send it: built from the
/// room's state under its lock, encoded once for the teacher and once for every student but their
/// own part.
extension Room {
    /// The most bytes a snapshot takes, by construction: a room's title and its course's (800
    /// bytes of text each), up to 100 lessons listed by id (60) and title (``listedTitleBytes``),
    /// 20 wrong answers of 400 bytes (with what each missed), at most seven groups of what they
    /// missed (``Misconception``, a sentence and a teacher's note of 800 bytes each), a heat map of 200 frames, a question's letters
    /// (``RoomQuestion/maximumLetterBytes``) and answer, and a student's name — each as JSON
    /// escapes it. Every watcher's queue holds one (`--sse-queue-bytes` is at least this and 16
    /// KiB), so no room's stream outgrows it (RoomTests measures the largest room there can be).
    static let maximumSnapshotBytes = 48 * 1024
    /// The bytes of a lesson's title in a course's list (cut at a character's end, with "…").
    static let listedTitleBytes = 64

    /// The snapshot `student` (`nil`: the teacher) is sent now, as it goes on the wire — what
    /// ``maximumSnapshotBytes`` bounds.
    func snapshotFrame(for student: Int?) -> String {
        state.withLock { state in
            guard let student else { return snapshot(state, for: nil).frame }
            var shared: String?
            return studentSnapshot(state, for: student, shared: &shared).frame
        }
    }

    /// The view now of the teacher (`student` nil), a student or the audience (what `GET
    /// /api/rooms/{rid}` answers).
    func view(for student: Int?, audience: Bool = false) -> RoomView {
        state.withLock { view(of: $0, for: student, audience: audience) }
    }

    /// Student `number`'s snapshot: every student's view is the same but for `you`, which sorts
    /// last of its keys, so the rest is encoded once a change (`shared`) and `you` added to it —
    /// a question reaches a thousand students without a thousand encodings of the whole.
    func studentSnapshot(_ state: State, for number: Int, shared: inout String?) -> ServerSentEvent {
        let common = shared ?? Self.encoded(view(of: state, for: number, withYou: false))
        shared = common
        let you = Self.youJSON(state, number)
        let data = common == "{}" ? #"{"you":\#(you)}"# : common.dropLast() + #","you":"# + you + "}"
        return ServerSentEvent(data: data, event: "room", id: String(state.version))
    }

    /// A student's own part, `you`, written as ``RoomView/You`` encodes (keys sorted, `nil`s left
    /// out) by hand: the encoder's fixed cost, paid a thousand times a question, was most of it.
    static func youJSON(_ state: State, _ number: Int) -> String {
        guard let me = state.students[number] else { return "null" }
        let mine = state.tally.answer(of: number)
        var fields: [String] = []
        if let answer = mine?.marbles { fields.append(#""answer":"# + EventJSON.json(.string(answer))) }
        // In the second vote, the first answer the student gave (keys sorted: after `answer`).
        if let first = state.firstRound?.answer(of: number)?.marbles { fields.append(#""first":"# + EventJSON.json(.string(first))) }
        fields.append(#""name":"# + EventJSON.json(.string(me.name)))
        // At the reveal, the teacher's note to those whose answer missed what theirs did.
        if state.question?.isRevealed == true, let missed = mine?.misconception, let note = state.question?.notes[missed] {
            fields.append(#""note":"# + EventJSON.json(.string(note)))
        }
        if state.question?.isRevealed == true, let right = mine?.right { fields.append(#""right":\#(right)"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func encoded(_ value: some Encodable) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    func snapshot(_ state: State, for student: Int?, audience: Bool = false) -> ServerSentEvent {
        ServerSentEvent(data: Self.encoded(view(of: state, for: student, audience: audience)), event: "room", id: String(state.version))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// What `student` sees (nil: the teacher), or with `audience` the projector's view: the
    /// question and how many answered, and nothing of the answer — no truth, no class tally —
    /// until the reveal.
    func view(of state: State, for student: Int?, withYou: Bool = true, audience: Bool = false) -> RoomView {
        let teacher = student == nil && !audience
        let question = state.question.map { question in
            RoomView.Question(
                id: question.id,
                stream: question.stream,
                from: question.from,
                frame: question.frame,
                frames: question.frames,
                letters: question.letters,
                revealed: question.isRevealed,
                truth: question.isRevealed || teacher ? question.truth : nil,
                round: question.round,
                rows: question.rows
            )
        }
        var you: RoomView.You?
        if withYou, let student, let me = state.students[student] {
            let mine = state.tally.answer(of: student)
            let revealed = state.question?.isRevealed == true
            you = RoomView.You(
                name: me.name,
                answer: mine?.marbles,
                right: revealed ? mine?.right : nil,
                first: state.firstRound?.answer(of: student)?.marbles,
                note: revealed ? mine?.misconception.flatMap { state.question?.notes[$0] } : nil
            )
        }
        var tally: RoomView.Class?
        if teacher || (audience && state.question?.isRevealed == true), state.question != nil {
            tally = RoomView.Class(
                answered: state.tally.answered,
                right: state.tally.right,
                wrong: state.tally.wrongGroups(limit: Self.shownGroups),
                missed: state.tally.misconceptions.map { group in
                    var group = group
                    group.note = state.question?.notes[group.group]
                    return group
                },
                heat: state.tally.heat,
                movement: state.firstRound.map { RoomMovement(first: $0.verdicts, second: state.tally.verdicts) }
            )
        }
        return RoomView(
            id: id,
            title: title,
            code: code,
            origin: state.source.origin,
            course: course.map { course in
                RoomView.Course(
                    title: course.title.map { API.shortened($0, toBytes: API.maxBytes(forCharacters: API.maxLinkTitle)) },
                    lessons: course.lessons.map { lesson in
                        RoomView.Course.Lesson(id: lesson.id, title: API.shortened(lesson.lesson.title ?? lesson.id, toBytes: Self.listedTitleBytes))
                    },
                    current: state.lesson
                )
            },
            session: state.session.id,
            students: state.students.count,
            question: question,
            suggested: state.source.suggested.flatMap { $0.stream.utf8.count <= RoomQuestion.maximumStreamBytes ? $0 : nil },
            you: you,
            class: tally,
            answered: audience ? state.question.map { _ in state.tally.answered } : nil,
            audienceKey: teacher ? audienceKey : nil,
            locked: state.isLocked,
            ended: state.isEnded
        )
    }
}
