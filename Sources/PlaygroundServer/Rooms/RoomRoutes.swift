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
    }

    /// The room named by the path, and who asks, as `roles` allows: 404/421 for no such room, 401
    /// without a key, 403 for a key that is not one of `roles`'.
    func requireRoom(_ roles: Set<RoomKeys.Role>) -> Router.Preflight {
        { [rooms] request in
            let id = request.parameters["rid"] ?? ""
            guard let room = rooms.room(id) else { return Self.missingRoom(id, instance: rooms.instanceID) }
            let asked = request.query["as"].flatMap(RoomKeys.Role.init(rawValue:))
            guard let key = RoomKeys.key(of: request, as: asked ?? (roles.count == 1 ? roles.first : nil)) else {
                var response = HTTPResponse.error(
                    status: 401,
                    code: "key_required",
                    message: "Show the room's key: Authorization: Bearer KEY (or the cookie POST /api/rooms/{rid}/cookie sets)."
                )
                response.addHeader("WWW-Authenticate", #"Bearer realm="room""#)
                return response
            }
            if room.isTeacher(key) {
                guard roles.contains(.teacher) else {
                    return .error(status: 403, code: "students_only", message: "Only a student of the room does this.")
                }
                request.found = RoomAccess(room: room, student: nil)
                return nil
            }
            if let student = room.student(withKey: key) {
                guard roles.contains(.student) else {
                    return .error(status: 403, code: "teacher_only", message: "Only the room's teacher does this.")
                }
                request.found = RoomAccess(room: room, student: student)
                return nil
            }
            return .error(status: 403, code: "wrong_key", message: "That key opens nothing in this room.")
        }
    }

    /// 421 `misdirected` for a room of another instance, else 404 `unknown_room`.
    static func missingRoom(_ id: String, instance: String?) -> HTTPResponse {
        if let owner = SessionID.instance(of: id), owner != instance {
            let message = "This room belongs to the instance '\(owner)'; send its requests there (through the proxy)."
            return .json(MisdirectedError(error: .init(code: "misdirected", owner: owner, message: message)), status: 421)
        }
        return .error(status: 404, code: "unknown_room", message: "There is no room with that id: it may have ended.")
    }

    /// The teacher's preflight for the room session's inputs: the room's session, as
    /// ``sendInput(_:)`` takes it, and the input's name checked.
    func checkRoomInputHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        if let refusal = requireRoom([.teacher])(&request) { return refusal }
        guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
        let session = access.room.session
        let name = request.parameters["name"] ?? ""
        guard name == Session.advanceInput || session.definition.description.input(named: name) != nil else {
            return unknownInput(session, name)
        }
        access.room.touch()
        request.found = session
        return InputBody.checkMediaType(of: request)
    }

    func addRoomRoutes(to router: inout Router) {
        let opening: Router.Preflight = { [creations = roomCreations] request in
            if let refusal = Self.jsonOnly(request) { return refusal }
            return Self.rateLimited(request, by: creations, "Too many rooms opened from your address; slow down.")
        }
        router.add(.post, "/api/rooms", preflight: opening) { request in openRoom(request) }
        router.add(.post, "/api/join/{code}", preflight: requireJoinCode) { request in joinRoom(request) }
        let anyone = requireRoom([.teacher, .student])
        let teacher = requireRoom([.teacher])
        let asking: Router.Preflight = { request in
            if let refusal = teacher(&request) { return refusal }
            return Self.jsonOnly(request)
        }
        let student = requireRoom([.student])
        let answering: Router.Preflight = { request in
            if let refusal = student(&request) { return refusal }
            return Self.jsonOnly(request) ?? Self.smallBody(request, at: Self.maxAnswerBodyBytes, "An answer")
        }
        router.add(.get, "/api/rooms/{rid}", preflight: anyone) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            var response = HTTPResponse.json(access.room.view(for: access.student))
            renewCookie(&response, request, access)
            return response
        }
        router.add(.delete, "/api/rooms/{rid}", preflight: teacher) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            rooms.end(access.room.id, reason: "ended")
            return HTTPResponse(status: 204)
        }
        router.add(.post, "/api/rooms/{rid}/cookie", preflight: anyone) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            var response = HTTPResponse(status: 204)
            renewCookie(&response, request, access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/events", preflight: anyone) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            var response = Self.eventStream { stream in access.room.watch(stream, student: access.student) }
            renewCookie(&response, request, access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/students", preflight: teacher) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            return .json(StudentList(students: access.room.students.map { StudentList.Student(number: $0.number, name: $0.name) }))
        }
        router.add(.post, "/api/rooms/{rid}/inputs/{name}", preflight: checkRoomInputHead) { request in
            sendInput(request)
        }
        router.add(.post, "/api/rooms/{rid}/questions", preflight: asking) { request in askQuestion(request) }
        router.add(.post, "/api/rooms/{rid}/reveal", preflight: teacher) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            switch access.room.reveal() {
            case .success: return .json(access.room.view(for: nil))
            case .failure(let refusal): return Self.questionRefused(refusal)
            }
        }
        router.add(.post, "/api/rooms/{rid}/answers", preflight: answering) { request in answerQuestion(request) }
        router.add(.post, "/api/rooms/{rid}/lesson", preflight: asking) { request in moveToLesson(request) }
        router.add(.delete, "/api/rooms/{rid}/students/{number}", preflight: teacher) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            // At most 9 digits: a number from outside is range-checked before it is used.
            let text = request.parameters["number"] ?? ""
            guard text.utf8.count <= 9, let number = Int(text), access.room.remove(student: number) else {
                return .error(status: 404, code: "unknown_student", message: "No student of this room has that number.")
            }
            return HTTPResponse(status: 204)
        }
        router.add(.post, "/api/rooms/{rid}/lock", preflight: asking) { request in
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            guard case .success(let fields) = Self.jsonObject(request.body), case .bool(let locked) = fields["locked"] ?? .null else {
                return .error(
                    status: 400,
                    code: "invalid_value",
                    message: #"Send {"locked": true} to close the room to newcomers, false to open it."#
                )
            }
            access.room.lock(locked)
            return .json(access.room.view(for: nil))
        }
        router.add(.post, "/api/rooms/{rid}/home", preflight: anyone) { request in
            takeHome(request)
        }
        addRoomSessionRoutes(to: &router)
    }

    /// 415 unless the body is JSON (or untyped, as curl's `-d` may send it).
    static func jsonOnly(_ request: HTTPRequest) -> HTTPResponse? {
        guard let type = InputBody.mediaType(of: request), !["application/json", "application/x-www-form-urlencoded"].contains(type) else {
            return nil
        }
        return .error(status: 415, code: "unsupported_media_type", message: "Send application/json; not \(type).")
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
    func askQuestion(_ request: HTTPRequest) -> HTTPResponse {
        guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        let room = access.room
        let session = room.session
        let streams = session.definition.description.streams.map(\.name)
        guard case .string(let stream) = fields["stream"], streams.contains(stream) else {
            return .error(status: 400, code: "invalid_value", message: "stream is one of the room's streams: \(streams.joined(separator: ", ")).")
        }
        guard stream.utf8.count <= RoomQuestion.maximumStreamBytes else {
            return .error(
                status: 400,
                code: "invalid_value",
                message: "A question is about a stream whose name is at most \(RoomQuestion.maximumStreamBytes) bytes; give this one a shorter name."
            )
        }
        guard let frame = Self.wholeNumber(fields["frame"], default: 100, in: 10...10_000) else {
            return .error(status: 400, code: "invalid_value", message: "frame is the milliseconds of one frame, 10 to 10000.")
        }
        guard let frames = Self.wholeNumber(fields["frames"], default: 20, in: 1...RoomQuestion.maximumFrames) else {
            return .error(status: 400, code: "invalid_value", message: "frames is how many frames to predict, 1 to \(RoomQuestion.maximumFrames).")
        }
        guard let journal = session.journal else {
            return .error(
                status: 409,
                code: "history_too_long",
                message: "The room's session has been driven too long to be replayed; start a new room to ask more."
            )
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
                letters: room.letters
            )
            switch question.checkBounds() {
            case .answerTooLong(let length)?:
                return .error(
                    status: 409,
                    code: "answer_too_long",
                    message: "The answer would be \(length) characters of marbles, more than a student may write "
                        + "(\(RoomQuestion.maximumAnswerLength)): ask about fewer frames, or a stream that sends less at once."
                )
            case .valuesTooLarge(let bytes)?:
                return .error(
                    status: 409,
                    code: "values_too_large",
                    message: "The values \(stream) sends in those frames take \(bytes) bytes to list for the class, more than a question "
                        + "shows (\(RoomQuestion.maximumLetterBytes)): ask about fewer frames, or a stream of smaller values."
                )
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
    func answerQuestion(_ request: HTTPRequest) -> HTTPResponse {
        guard let access = found(request, as: RoomAccess.self), let student = access.student else { return Self.preflightMissing }
        if let refusal = Self.smallBody(request, at: Self.maxAnswerBodyBytes, "An answer") { return refusal }
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        guard let number = Self.wholeNumber(fields["question"], default: nil, in: 1...Int(Int32.max)) else {
            return .error(status: 400, code: "invalid_value", message: "question is the number of the question answered.")
        }
        guard case .string(let marbles) = fields["marbles"] else {
            return .error(status: 400, code: "invalid_value", message: "marbles is the answer in marble notation: \"--a-b|\".")
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
        case .noQuestion: .error(status: 409, code: "no_question", message: "No question is asked in the room now.")
        case .wrongQuestion: .error(status: 409, code: "question_closed", message: "That question is no longer asked: answer the current one.")
        case .revealed: .error(status: 409, code: "question_revealed", message: "The answer has been revealed: answers are closed.")
        case .ended: .error(status: 404, code: "unknown_room", message: "That room has ended.")
        case .rateExceeded:
            .error(
                status: 429,
                code: "rate_limited",
                message: "You are answering faster than the room takes answers; slow down.",
                retryAfterSeconds: 1
            )
        case .invalid(.notMarbles):
            .error(
                status: 400,
                code: "invalid_marbles",
                message: "That is not marble notation: use -, a letter or digit (A–Z, a–z, 0–9), ( ), and | or # last."
            )
        case .invalid(.tooLong):
            .error(status: 400, code: "invalid_marbles", message: "An answer is at most \(RoomQuestion.maximumAnswerLength) characters.")
        case .invalid(.pastTheWindow):
            .error(status: 400, code: "invalid_marbles", message: "The answer goes past the frames the question asks about.")
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
    func moveToLesson(_ request: HTTPRequest) -> HTTPResponse {
        guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
        let room = access.room
        guard let course = room.course else {
            return .error(status: 409, code: "no_course", message: "This room follows no course: it has one session, and no other lesson.")
        }
        let index: Int
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let fields):
            guard let given = Self.wholeNumber(fields["index"], default: nil, in: 0...(course.lessons.count - 1)) else {
                return .error(status: 400, code: "invalid_value", message: "index is a lesson of the course, 0 to \(course.lessons.count - 1).")
            }
            index = given
        }
        return onProgramThread(request) { [rooms, programRules] in
            switch RoomSource.lesson(course.lessons[index], rules: programRules) {
            case .failure(.invalid(let message)): return .error(status: 400, code: "invalid_value", message: message)
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
    func takeHome(_ request: HTTPRequest) -> HTTPResponse {
        guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
        // A copy's clock is its taker's to move: during a question it would run into the answer.
        if access.student != nil, access.room.isAsking {
            return .error(
                status: 409,
                code: "question_open",
                message: "A question is open: take the room home once its answer is revealed."
            )
        }
        let source = access.room.session
        guard let journal = source.journal else {
            return .error(status: 409, code: "history_too_long", message: "The room's session has been driven too long to be copied.")
        }
        do {
            let session = try sessions.create(
                source.definition,
                clientAddress: request.clientAddress,
                clock: .virtual,
                pool: source.definition.programSummary == nil ? .scenarios : .programs
            )
            session.replay(journal.steps)
            // A copy taken before a question is asked has the room's future too: while one is
            // open, its clock waits at the question's start.
            if access.student != nil { session.limitClock { [weak room = access.room] in room?.openQuestionStart } }
            var response = HTTPResponse.json(SessionCreated(session), status: 201)
            response.addHeader("Location", "/api/sessions/\(session.id)")
            return response
        } catch {
            return refusal(error)
        }
    }
}

/// `GET /api/rooms/{rid}/students`.
struct StudentList: Encodable {
    /// A student: their number in the room (the first part of their key) and name.
    struct Student: Encodable {
        let number: Int
        let name: String
    }
    let students: [Student]
}
