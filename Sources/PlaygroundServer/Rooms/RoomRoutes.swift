import Foundation
import MicroHTTP
import Scenarios

/// The rooms' routes (docs/API.md, "Rooms"): a teacher opens a room, students join it by its code,
/// the teacher drives its session, asks, reveals and ends it, students answer. Who may do what is
/// decided by the key a request shows (``RoomKeys``), before its body is read.
extension API {
    /// What a room route's preflight found: the room, and who asks (`student` nil: the teacher).
    struct RoomAccess: Sendable {
        let room: Room
        let student: Int?
        /// The audience view's key (the projector's): it watches, and controls nothing.
        var audience = false

        /// The role whose key was shown.
        var role: RoomKeys.Role { audience ? .audience : student == nil ? .teacher : .student }
    }

    /// The room named by the path, and who asks, as `roles` allows: 404/421 for no such room, 401
    /// without a key, 403 for a key that is not one of `roles`'.
    func requireRoom(_ roles: Set<RoomKeys.Role>) -> Router.Finder<RoomAccess> {
        { [rooms] request in
            let id = request.parameters["rid"] ?? ""
            guard let room = rooms.room(id) else { return .refused(Self.missingRoom(id, instance: rooms.instanceID)) }
            let asked = request.query["as"].flatMap(RoomKeys.Role.init(rawValue:))
            guard let key = RoomKeys.key(of: request, as: asked ?? (roles.count == 1 ? roles.first : nil)) else {
                var response = PlaygroundError(
                    .keyRequired,
                    "Show the room's key: Authorization: Bearer KEY (or the cookie POST /api/rooms/{rid}/cookie sets)."
                ).response
                response.addHeader("WWW-Authenticate", #"Bearer realm="room""#)
                return .refused(response)
            }
            if room.isTeacher(key) {
                guard roles.contains(.teacher) else { return .refused(PlaygroundError(.studentsOnly, "Only a student of the room does this.")) }
                return .proceed(RoomAccess(room: room, student: nil))
            }
            if let student = room.student(withKey: key) {
                guard roles.contains(.student) else { return .refused(PlaygroundError(.teacherOnly, "Only the room's teacher does this.")) }
                return .proceed(RoomAccess(room: room, student: student))
            }
            if room.isAudience(key) {
                guard roles.contains(.audience) else {
                    return .refused(PlaygroundError(.teacherOnly, "The audience view's key watches the room; it does nothing else."))
                }
                return .proceed(RoomAccess(room: room, student: nil, audience: true))
            }
            return .refused(PlaygroundError(.wrongKey, "That key opens nothing in this room."))
        }
    }

    /// 421 `misdirected` for a room of another instance, else 404 `unknown_room`.
    static func missingRoom(_ id: String, instance: String?) -> HTTPResponse {
        if let owner = SessionID.instance(of: id), owner != instance { return Misdirected(owner: owner, what: "room").response }
        return PlaygroundError(.unknownRoom, "There is no room with that id: it may have ended.").response
    }

    /// The teacher's preflight for the room session's inputs: the room's session, as
    /// ``sendInput(_:)`` takes it, and the input's name checked.
    func checkRoomInputHead(_ request: inout HTTPRequest) -> Lookup<Session> {
        switch requireRoom([.teacher])(&request) {
        case .refused(let response): return .refused(response)
        case .proceed(let access):
            let checked = checkedInput(of: access.room.session, request)
            if case .proceed = checked { access.room.touch() }
            return checked
        }
    }

    func addRoomRoutes(to router: inout Router) {
        let opening: Router.Preflight = { [creations = roomCreations] request in
            if let refusal = Self.jsonOnly(request) { return refusal }
            return Self.rateLimited(request, by: creations, "Too many rooms opened from your address; slow down.")
        }
        router.add(.post, "/api/rooms", preflight: opening) { request in openRoom(request) }
        let joinCode: Router.Finder<JoinCode> = { requireJoinCode(&$0) }
        router.add(.post, "/api/join/{code}", lookup: joinCode) { request, found in joinRoom(request, found.code) }
        let anyone = requireRoom([.teacher, .student])
        // What the audience view may do too: watch.
        let watching = requireRoom([.teacher, .student, .audience])
        let teacher = requireRoom([.teacher])
        let asking: Router.Finder<RoomAccess> = { request in teacher(&request).unless(Self.jsonOnly(request)) }
        let student = requireRoom([.student])
        let answering: Router.Finder<RoomAccess> = { request in
            student(&request).unless(Self.jsonOnly(request) ?? Self.smallBody(request, at: Self.maxAnswerBodyBytes, "An answer"))
        }
        router.add(.get, "/api/rooms/{rid}", lookup: watching) { request, access in
            var response = HTTPResponse.json(access.room.view(for: access.student, audience: access.audience))
            renewCookie(&response, request, access)
            return response
        }
        router.add(.delete, "/api/rooms/{rid}", lookup: teacher) { request, access in
            rooms.end(access.room.id, reason: "ended")
            return HTTPResponse(status: 204)
        }
        router.add(.post, "/api/rooms/{rid}/cookie", lookup: watching) { request, access in
            var response = HTTPResponse(status: 204)
            renewCookie(&response, request, access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/events", lookup: watching) { request, access in
            var response = Self.eventStream { stream in access.room.watch(stream, student: access.student, audience: access.audience) }
            renewCookie(&response, request, access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/students", lookup: teacher) { request, access in
            .json(StudentList(students: access.room.students.map { StudentList.Student(number: $0.number, name: $0.name, answered: $0.answered) }))
        }
        let input: Router.Finder<Session> = { checkRoomInputHead(&$0) }
        router.add(.post, "/api/rooms/{rid}/inputs/{name}", lookup: input) { request, session in
            sendInput(request, session)
        }
        router.add(.post, "/api/rooms/{rid}/questions", lookup: asking) { request, access in askQuestion(request, access) }
        router.add(.post, "/api/rooms/{rid}/reveal", lookup: teacher) { request, access in
            switch access.room.reveal() {
            case .success: return .json(access.room.view(for: nil))
            case .failure(let refusal): return Self.questionRefused(refusal)
            }
        }
        let noting: Router.Finder<RoomAccess> = { request in
            teacher(&request).unless(Self.jsonOnly(request) ?? Self.smallBody(request, at: 4_096, "A note"))
        }
        router.add(.post, "/api/rooms/{rid}/notes", lookup: noting) { request, access in noteGroup(request, access) }
        router.add(.get, "/api/rooms/{rid}/report", lookup: teacher) { request, access in
            roomReport(request, access)
        }
        router.add(.post, "/api/rooms/{rid}/again", lookup: teacher) { request, access in
            switch access.room.askAgain() {
            case .success: return .json(access.room.view(for: nil))
            case .failure(let refusal): return Self.questionRefused(refusal)
            }
        }
        router.add(.post, "/api/rooms/{rid}/answers", lookup: answering) { request, access in answerQuestion(request, access) }
        router.add(.post, "/api/rooms/{rid}/lesson", lookup: asking) { request, access in moveToLesson(request, access) }
        router.add(.delete, "/api/rooms/{rid}/students/{number}", lookup: teacher) { request, access in
            // At most 9 digits: a number from outside is range-checked before it is used.
            let text = request.parameters["number"] ?? ""
            guard text.utf8.count <= 9, let number = Int(text), access.room.remove(student: number) else {
                return PlaygroundError(.unknownStudent, "No student of this room has that number.").response
            }
            return HTTPResponse(status: 204)
        }
        router.add(.post, "/api/rooms/{rid}/lock", lookup: asking) { request, access in
            guard case .success(let fields) = Self.jsonObject(request.body), case .bool(let locked) = fields["locked"] ?? .null else {
                return PlaygroundError(.invalidValue, #"Send {"locked": true} to close the room to newcomers, false to open it."#).response
            }
            access.room.lock(locked)
            return .json(access.room.view(for: nil))
        }
        router.add(.post, "/api/rooms/{rid}/home", lookup: anyone) { request, access in
            takeHome(request, access)
        }
        addRoomSessionRoutes(to: &router)
    }

    /// 415 unless the body is JSON (or untyped, as curl's `-d` may send it).
    static func jsonOnly(_ request: HTTPRequest) -> HTTPResponse? {
        guard let type = InputBody.mediaType(of: request), !["application/json", "application/x-www-form-urlencoded"].contains(type) else {
            return nil
        }
        return PlaygroundError(.unsupportedMediaType, "Send application/json; not \(type).").response
    }

    /// How long a room's cookie lasts: as long as an idle room, at most a day.
    static func cookieSeconds(_ limits: RoomLimits) -> Int {
        Int(min(limits.idleTimeout, .seconds(86_400)) / .seconds(1))
    }

    /// The body as a JSON object, or the 400 to answer.
    static func jsonObject(_ body: [UInt8]) -> Result<[String: JSONValue], FindQueryError> {
        switch JSONValue.read(body) {
        case .failure(.tooDeep): return .failure(.unreadable(.tooDeep))
        case .failure(.invalid): return .failure(.unreadable(.invalidJSON))
        case .success(.object(let fields)): return .success(fields)
        case .success: return .failure(.invalid("The body is a JSON object."))
        }
    }

    // MARK: Questions

    /// `POST /api/rooms/{rid}/questions`: `{"stream": NAME, "frames": 20, "frame": 100}`; the
    /// answer is found by replaying the room's session on a program thread.
    func askQuestion(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        let room = access.room
        let session = room.session
        let streams = session.definition.description.streams.map(\.name)
        guard case .string(let stream) = fields["stream"], streams.contains(stream) else {
            return PlaygroundError(.invalidValue, "stream is one of the room's streams: \(streams.joined(separator: ", ")).").response
        }
        guard stream.utf8.count <= RoomQuestion.maximumStreamBytes else {
            return PlaygroundError(
                .invalidValue,
                "A question is about a stream whose name is at most \(RoomQuestion.maximumStreamBytes) bytes; give this one a shorter name."
            ).response
        }
        guard let frame = Self.wholeNumber(fields["frame"], default: 100, in: 10...10_000) else {
            return PlaygroundError(.invalidValue, "frame is the milliseconds of one frame, 10 to 10000.").response
        }
        guard let frames = Self.wholeNumber(fields["frames"], default: 20, in: 1...RoomQuestion.maximumFrames) else {
            return PlaygroundError(.invalidValue, "frames is how many frames to predict, 1 to \(RoomQuestion.maximumFrames).").response
        }
        guard let journal = session.journal else {
            return PlaygroundError(.historyTooLong, "The room's session has been driven too long to be replayed; start a new room to ask more.")
                .response
        }
        let number = room.takeQuestionNumber()
        return onProgramThread(request) { [metrics, sessions] in
            let question = RoomQuestion.ask(
                id: number,
                stream: stream,
                frame: frame,
                frames: frames,
                in: session.definition,
                settings: sessions.settings,
                steps: journal.steps,
                from: journal.milliseconds,
                letters: room.letters,
                inputs: room.inputs
            )
            switch question.checkBounds() {
            case .answerTooLong(let length)?:
                return PlaygroundError(
                    .answerTooLong,
                    "The answer would be \(length) characters of marbles, more than a student may write "
                        + "(\(RoomQuestion.maximumAnswerLength)): ask about fewer frames, or a stream that sends less at once."
                ).response
            case .valuesTooLarge(let bytes)?:
                return PlaygroundError(
                    .valuesTooLarge,
                    "The values \(stream) sends in those frames take \(bytes) bytes to list for the class, more than a question "
                        + "shows (\(RoomQuestion.maximumLetterBytes)): ask about fewer frames, or a stream of smaller values."
                ).response
            case nil: break
            }
            guard room.ask(question) else { return Self.missingRoom(room.id, instance: nil) }
            metrics.roomAsked()
            return .json(room.view(for: nil), status: 201)
        }
    }

    /// The most bytes of an answer's body: `{"question": N, "marbles": …}`, 400 bytes of marbles.
    static let maxAnswerBodyBytes = 2_048

    /// `POST /api/rooms/{rid}/answers`: `{"question": 1, "marbles": "--a-|"}`.
    func answerQuestion(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        // The route's lookup takes students' keys alone.
        guard let student = access.student else { return PlaygroundError(.studentsOnly, "Only a student of the room does this.").response }
        if let refusal = Self.smallBody(request, at: Self.maxAnswerBodyBytes, "An answer") { return refusal }
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        guard let number = Self.wholeNumber(fields["question"], default: nil, in: 1...Int(Int32.max)) else {
            return PlaygroundError(.invalidValue, "question is the number of the question answered.").response
        }
        guard case .string(let marbles) = fields["marbles"] else {
            return PlaygroundError(.invalidValue, "marbles is the answer in marble notation: \"--a-b|\".").response
        }
        switch access.room.answer(marbles, to: number, from: student) {
        case .success:
            metrics.roomAnswered()
            return .json(access.room.view(for: student))
        case .failure(let refusal):
            return Self.questionRefused(refusal)
        }
    }

    static func questionRefused(_ refusal: Room.QuestionRefusal) -> HTTPResponse {
        switch refusal {
        case .noQuestion: PlaygroundError(.noQuestion, "No question is asked in the room now.").response
        case .wrongQuestion: PlaygroundError(.questionClosed, "That question is no longer asked: answer the current one.").response
        case .revealed: PlaygroundError(.questionRevealed, "The answer has been revealed: answers are closed.").response
        case .secondRound: PlaygroundError(.secondRound, "This question is in its second vote already; reveal it, or ask another.").response
        case .ended: PlaygroundError(.unknownRoom, "That room has ended.").response
        case .rateExceeded:
            PlaygroundError(.rateLimited, "You are answering faster than the room takes answers; slow down.", retryAfterSeconds: 1).response
        case .invalid(.notMarbles):
            PlaygroundError(.invalidMarbles, "That is not marble notation: use -, a letter or digit (A–Z, a–z, 0–9), ( ), and | or # last.").response
        case .invalid(.tooLong):
            PlaygroundError(.invalidMarbles, "An answer is at most \(RoomQuestion.maximumAnswerLength) characters.").response
        case .invalid(.pastTheWindow):
            PlaygroundError(.invalidMarbles, "The answer goes past the frames the question asks about.").response
        }
    }

    /// A whole number field between `range`'s bounds, `default` when it is absent; `nil` otherwise.
    static func wholeNumber(_ json: JSONValue?, default fallback: Int?, in range: ClosedRange<Int>) -> Int? {
        switch json {
        case nil: return fallback
        case .int(let value)?: return range.contains(value) ? value : nil
        default: return nil
        }
    }

    // MARK: Lessons

    /// `POST /api/rooms/{rid}/lesson`: `{"index": 2}`, the course's lesson to move the room to (from
    /// 0): a new session runs it, the old one ends, the question closes.
    func moveToLesson(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        let room = access.room
        guard let course = room.course else {
            return PlaygroundError(.noCourse, "This room follows no course: it has one session, and no other lesson.").response
        }
        let index: Int
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let fields):
            guard let given = Self.wholeNumber(fields["index"], default: nil, in: 0...(course.lessons.count - 1)) else {
                return PlaygroundError(.invalidValue, "index is a lesson of the course, 0 to \(course.lessons.count - 1).").response
            }
            index = given
        }
        return onProgramThread(request) { [rooms, programRules] in
            switch RoomSource.lesson(course.lessons[index], rules: programRules) {
            case .failure(.invalid(let message)): return PlaygroundError(.invalidValue, message).response
            case .failure(.program(let refusal)): return Self.programInvalid(refusal)
            case .success(let source):
                do throws(RoomStore.CreationError) {
                    try rooms.move(room, toLesson: index, source)
                } catch {
                    return roomRefusal(error)
                }
                return .json(room.view(for: nil))
            }
        }
    }

    // MARK: Taking it home

    /// `POST /api/rooms/{rid}/home`: a session of the asker's own, where the room's is now — its
    /// inputs and clock replayed — for them to drive.
    func takeHome(_ request: HTTPRequest, _ access: RoomAccess) -> HTTPResponse {
        // A copy's clock is its taker's to move: during a question it would run into the answer.
        if access.student != nil, access.room.isAsking {
            return PlaygroundError(.questionOpen, "A question is open: take the room home once its answer is revealed.").response
        }
        let source = access.room.session
        guard let journal = source.journal else {
            return PlaygroundError(.historyTooLong, "The room's session has been driven too long to be copied.").response
        }
        do {
            // Counted on the room's allowance, a seat's own: a class shares one school address.
            let session = try sessions.create(
                source.definition,
                clientAddress: "room-seat \(access.room.seatTag).\(access.student ?? 0)",
                clock: .virtual,
                pool: source.definition.programSummary == nil ? .scenarios : .programs,
                clientLimit: rooms.limits.sessionsPerSeat
            )
            session.replay(journal.steps)
            // A copy taken before a question is asked has the room's future too: while one is
            // open, its clock waits at the question's start.
            if access.student != nil { session.limitClock { [weak room = access.room] in room?.openQuestionStart } }
            var response = HTTPResponse.json(SessionCreated(session), status: 201)
            response.addHeader("Location", "/api/sessions/\(session.id)")
            return response
        } catch .tooManyForClient {
            let limit = rooms.limits.sessionsPerSeat
            return PlaygroundError(
                .seatSessionsUsed,
                "You hold \(limit) sessions taken home from this room, as many as a seat may (--room-sessions-per-seat); "
                    + "delete one (DELETE /api/sessions/ID) or let it expire, then take it home again.",
                retryAfterSeconds: 30
            ).response
        } catch {
            return refusal(error)
        }
    }
}

/// `GET /api/rooms/{rid}/students`.
struct StudentList: Encodable {
    /// A student: their number in the room (the first part of their key), name, and whether they
    /// have answered the question asked (absent while none is).
    struct Student: Encodable {
        let number: Int
        let name: String
        let answered: Bool?
    }
    let students: [Student]
}
