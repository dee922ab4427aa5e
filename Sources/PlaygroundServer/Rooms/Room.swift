import Dispatch
import Foundation
import Locking
import MicroHTTP
import Scenarios

/// A class in one place (docs/API.md, "Rooms"): one virtual-clock session that only the teacher
/// drives, the students who joined it, the question asked and the class's answers to it, and the
/// event streams that show each person their view of it.
///
/// Each person's stream carries snapshots (`event: room`): the whole of what they see, with the
/// room's version as its `id:`, so that a reconnect (`Last-Event-ID`) simply gets the current one.
/// Students get theirs at once when the room changes for everyone (a question asked or revealed)
/// or for them (their answer); the teacher's — the class's answers, counted as they arrive
/// (``ClassTally``) — at most every ``teacherInterval``, however fast answers come.
///
/// Thread safety: one lock over its state; snapshots are encoded under it and sent to the
/// streams' queues (which never block), so that every stream sees the room's changes in order.
final class Room: Sendable {
    /// The fastest the teacher's view is sent again: 4 times a second.
    static let teacherInterval: Duration = .milliseconds(250)
    /// The most distinct wrong answers the teacher's view lists.
    static let shownGroups = 20

    /// One student: a number in the room, a display name unique in it, and the secret half of
    /// their key (the key is `NUMBER.SECRET`, so the room finds the student without comparing
    /// secrets, then compares one in constant time).
    struct Student: Sendable {
        let number: Int
        let name: String
        let secret: String
        var answers: TokenBucket
    }

    /// What a room shows of where it comes from.
    struct Origin: Sendable, Encodable {
        /// `lesson`, `program` or `scenario`.
        let kind: String
        /// The lesson's or the scenario's id (none for a program: its text is the session's).
        let id: String?
    }

    struct Watcher {
        let stream: EventStream
        /// `nil` for the teacher and the audience.
        let student: Int?
        /// The projector's view (``audienceKey``): the teacher's pace, nothing of the answer.
        var audience = false
    }

    /// What the room's lock guards (read by the snapshots, RoomSnapshots.swift).
    struct State {
        var session: Session
        /// What the session runs (the course's current lesson, for a course).
        var source: RoomSource
        /// The course's lesson shown now (0 without a course).
        var lesson = 0
        var students: [Int: Student] = [:]
        var names: Set<String> = []
        /// The next suffix to try for each name taken: a name made unique is found without trying
        /// every suffix before it again (`NAME (2)`, `NAME (3)`, …).
        var nextSuffix: [String: Int] = [:]
        var nextStudent = 1
        var question: RoomQuestion?
        var tally = ClassTally(frames: 0)
        /// The first vote's answers, once the question is asked again (``askAgain()``).
        var firstRound: ClassTally?
        /// The questions asked before this one, for the report (``RoomReport``), and their bytes.
        var reported: [RoomReport.Question] = []
        var reportedBytes = 0
        var reportDropped = 0
        var nextQuestion = 1
        var watchers: [ObjectIdentifier: Watcher] = [:]
        /// The streams of the room's session (its diagram), by who watches: a removed student's end.
        var sessionWatchers: [ObjectIdentifier: Watcher] = [:]
        var version = 0
        var lastActivity = ContinuousClock.now
        var isEnded = false
        /// The teacher closed the door: nobody new joins.
        var isLocked = false
        var lastTeacherSend: ContinuousClock.Instant?
        var teacherSendScheduled = false
    }

    let id: String
    let code: String
    let title: String
    let teacherAddress: String
    /// The lessons the room follows, when it was opened from a course (or a lesson).
    let course: RoomCourse?
    private let teacherKey: String
    private let limits: RoomLimits
    /// Everything that changes, under one lock; read and written here and in RoomAsking.swift.
    let state: Lock<State>
    private let timers: DispatchQueue

    /// A question to offer the teacher: a lesson's own.
    struct SuggestedQuestion: Sendable, Encodable {
        let stream: String
        let frames: Int
    }

    init(
        id: String,
        code: String,
        title: String,
        source: RoomSource,
        course: RoomCourse?,
        session: Session,
        teacherKey: String,
        teacherAddress: String,
        limits: RoomLimits,
        timers: DispatchQueue
    ) {
        self.id = id
        self.code = code
        // A lesson's or a scenario's title may be the room's: bounded here as a given one is.
        self.title = API.shortened(title, toBytes: API.maxBytes(forCharacters: API.maxLinkTitle))
        self.course = course
        self.teacherKey = teacherKey
        self.teacherAddress = teacherAddress
        self.limits = limits
        self.timers = timers
        state = Lock(State(session: session, source: source))
        session.hold(for: id)
    }

    var session: Session { state.withLock { $0.session } }

    /// The letters the class writes values with before a question adds any (a lesson's rows').
    var letters: [String: JSONValue] { state.withLock { $0.source.letters } }

    /// A lesson room's input rows, by name: a question's material.
    var inputs: [String] { state.withLock { $0.source.inputs } }

    // MARK: Who asks

    /// Whether `key` is the teacher's.
    func isTeacher(_ key: String) -> Bool { RoomKeys.matches(key, teacherKey) }

    /// What the sessions taken home from the room are counted under, with the seat's number (0:
    /// the teacher): random, so that neither the room's id nor its code is in a session's client.
    let seatTag = String(RoomKeys.make().prefix(12))

    /// The key of the audience view (the projector's): it watches the room and controls nothing.
    /// The teacher's view carries it.
    let audienceKey = RoomKeys.make()

    /// Whether `key` is the audience view's.
    func isAudience(_ key: String) -> Bool { RoomKeys.matches(key, audienceKey) }

    /// The student whose key is `key`, or `nil`.
    func student(withKey key: String) -> Int? {
        let parts = key.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let number = Int(parts[0]) else { return nil }
        return state.withLock { state in
            guard let student = state.students[number], RoomKeys.matches(String(parts[1]), student.secret) else { return nil }
            return number
        }
    }

    // MARK: Students

    /// Why a student was not let in.
    enum JoinRefusal: Error {
        case full(Int)
        case locked
        case ended
    }

    /// Lets a student in as `name` (made unique in the room by a suffix): their number, name and key.
    func join(as name: String) -> Result<(number: Int, name: String, key: String), JoinRefusal> {
        let secret = RoomKeys.make()
        return state.withLock { state in
            guard !state.isEnded else { return .failure(.ended) }
            guard !state.isLocked else { return .failure(.locked) }
            guard state.students.count < limits.studentsPerRoom else { return .failure(.full(limits.studentsPerRoom)) }
            let unique = Self.unique(name, in: &state)
            let number = state.nextStudent
            state.nextStudent += 1
            state.names.insert(unique)
            state.students[number] = Student(
                number: number,
                name: unique,
                secret: secret,
                answers: TokenBucket(capacity: limits.answerBurst, perSecond: limits.answersPerSecond)
            )
            state.lastActivity = .now
            changed(&state, students: false)
            return .success((number, unique, "\(number).\(secret)"))
        }
    }

    /// The students, in the order they joined (the teacher's alone).
    /// The students, by number, and whether each has answered the question asked (nil: none is).
    var students: [(number: Int, name: String, answered: Bool?)] {
        state.withLock { state in
            state.students.values.sorted { $0.number < $1.number }.map { student in
                (student.number, student.name, state.question.map { _ in state.tally.answer(of: student.number) != nil })
            }
        }
    }

    /// Takes student `number` out of the room: their key opens nothing from now on, their answer
    /// leaves the counts, and their streams end (`event: end`, `{"reason": "removed"}`). `false`
    /// if there is no such student.
    func remove(student number: Int) -> Bool {
        let streams = state.withLock { state -> (room: [EventStream], diagram: [EventStream])? in
            guard let student = state.students.removeValue(forKey: number) else { return nil }
            state.names.remove(student.name)
            state.tally.remove(number)
            let theirs = state.watchers.filter { $0.value.student == number }
            for key in theirs.keys { state.watchers[key] = nil }
            let diagrams = state.sessionWatchers.filter { $0.value.student == number }
            for key in diagrams.keys { state.sessionWatchers[key] = nil }
            state.lastActivity = .now
            changed(&state, students: false)
            return (theirs.values.map(\.stream), diagrams.values.map(\.stream))
        }
        guard let streams else { return false }
        for stream in streams.room {
            stream.send(Self.endEvent("removed"))
            stream.close()
        }
        for stream in streams.diagram { stream.close() }
        return true
    }

    /// Closes the door (`locked`) or opens it again: while it is closed, nobody new joins.
    func lock(_ locked: Bool) {
        state.withLock { state in
            state.isLocked = locked
            state.lastActivity = .now
            changed(&state, students: false)
        }
    }

    var studentCount: Int { state.withLock { $0.students.count } }

    // MARK: Sessions

    /// Moves the room to the course's lesson `index`, running `source` in `session`: the question
    /// is closed, and everyone's view follows. Answers the session it replaces (for its caller to
    /// end), or `nil` when the room has ended (then `session` is the caller's to end).
    func move(toLesson index: Int, _ source: RoomSource, in session: Session) -> Session? {
        session.hold(for: id)
        return state.withLock { state in
            guard !state.isEnded else { return nil }
            defer {
                state.session = session
                state.source = source
                state.lesson = index
                archiveQuestion(&state)
                state.question = nil
                state.firstRound = nil
                state.tally = ClassTally(frames: 0)
                state.lastActivity = .now
                changed(&state, students: true)
            }
            return state.session
        }
    }

    // MARK: Streams

    /// Adds `stream` as the teacher's (`student` nil) or a student's: it gets the current
    /// snapshot, then each later one.
    func watch(_ stream: EventStream, student: Int?, audience: Bool = false) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isEnded else { return false }
            stream.send(snapshot(state, for: student, audience: audience))
            state.watchers[ObjectIdentifier(stream)] = Watcher(stream: stream, student: student, audience: audience)
            state.lastActivity = .now
            return true
        }
        guard accepted else {
            stream.send(Self.endEvent("ended"))
            stream.close()
            return
        }
        let key = ObjectIdentifier(stream)
        stream.onTermination { [self] in
            state.withLock { state in
                state.watchers[key] = nil
                state.lastActivity = .now
            }
        }
    }

    /// Adds `stream` as a watcher of the room's session — its diagram — for the teacher (`student`
    /// nil) or a student, from event `since` (with the RAC objects' changes when `inside`) as
    /// ``Session/watch(_:since:inside:)`` takes it. The room's
    /// session is watched through the room alone (its keys decide who sees it), so that removing a
    /// student ends their diagram too; a stream of a student no longer in the room is closed.
    func watchSession(_ stream: EventStream, student: Int?, since: OutsideNumbers.ResumePoint?, inside: Bool = false) {
        let key = ObjectIdentifier(stream)
        let session = state.withLock { state -> Session? in
            guard !state.isEnded, student.map({ state.students[$0] != nil }) ?? true else { return nil }
            state.sessionWatchers[key] = Watcher(stream: stream, student: student)
            return state.session
        }
        guard let session else { return stream.close() }
        stream.onTermination { [self] in
            _ = state.withLock { $0.sessionWatchers.removeValue(forKey: key) }
        }
        session.watch(stream, since: since, inside: inside)
    }

    /// When the question asked starts (virtual milliseconds), while its answer is not revealed:
    /// what a copy of the room's session may not run past (``Session/limitClock(by:)``).
    var openQuestionStart: Double? { state.withLock { $0.question.flatMap { $0.isRevealed ? nil : $0.from } } }

    /// Whether a question is asked and its answer not yet revealed: the room's future is the answer.
    var isAsking: Bool { state.withLock { $0.question.map { !$0.isRevealed } ?? false } }

    /// Something changed: the version moves on, the students affected get their snapshot now
    /// (all of them, or `only` one), and the teacher theirs within ``teacherInterval``.
    func changed(_ state: inout State, students: Bool, only: Int? = nil) {
        state.version += 1
        if students || only != nil {
            var shared: String?
            var frames: [Int: ServerSentEvent] = [:]
            for watcher in state.watchers.values {
                guard let number = watcher.student, students || number == only else { continue }
                let frame = frames[number] ?? studentSnapshot(state, for: number, shared: &shared)
                frames[number] = frame
                watcher.stream.send(frame)
            }
        }
        scheduleTeacherSend(&state)
    }

    private func scheduleTeacherSend(_ state: inout State) {
        guard !state.teacherSendScheduled else { return }
        let now = ContinuousClock.now
        let due = state.lastTeacherSend.map { $0 + Self.teacherInterval } ?? now
        if due <= now {
            sendTeacher(&state, at: now)
            return
        }
        state.teacherSendScheduled = true
        let delay = Double((due - now) / .microseconds(1)) / 1_000_000
        timers.asyncAfter(deadline: .now() + delay) { [self] in
            self.state.withLock { state in
                state.teacherSendScheduled = false
                sendTeacher(&state, at: .now)
            }
        }
    }

    private func sendTeacher(_ state: inout State, at now: ContinuousClock.Instant) {
        state.lastTeacherSend = now
        let watching = state.watchers.values.filter { $0.student == nil }
        guard !watching.isEmpty else { return }
        // The audience at the teacher's pace: how many answered changes with every answer.
        let frame = snapshot(state, for: nil)
        let audience = watching.contains(where: \.audience) ? snapshot(state, for: nil, audience: true) : frame
        for watcher in watching { watcher.stream.send(watcher.audience ? audience : frame) }
    }

    // MARK: Life

    /// Whether nothing happened in the room for `timeout` (watchers alone do not keep it).
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        state.withLock { now - $0.lastActivity > timeout }
    }

    /// Notes the teacher's driving (inputs, the clock): the room is in use.
    func touch() {
        state.withLock { $0.lastActivity = .now }
    }

    /// Ends the room: every stream gets `event: end` with `reason`, then closes; the session ends
    /// with it (its caller deletes it). Returns the session.
    @discardableResult
    func end(reason: String) -> Session {
        let (watchers, session) = state.withLock { state -> ([EventStream], Session) in
            state.isEnded = true
            defer {
                state.watchers = [:]
                state.sessionWatchers = [:]  // closed with the session, which its caller deletes
            }
            return (state.watchers.values.map(\.stream), state.session)
        }
        let end = Self.endEvent(reason)
        for stream in watchers {
            stream.send(end)
            stream.close()
        }
        return session
    }

    private static func endEvent(_ reason: String) -> ServerSentEvent {
        ServerSentEvent(data: #"{"reason":"\#(reason)"}"#, event: "end")
    }
}
