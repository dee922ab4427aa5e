import Foundation
import MicroHTTP
import Scenarios
import Store

/// Opening a room (`POST /api/rooms`) and joining one by its code (`POST /api/join/{code}`).
extension API {
    /// `POST /api/rooms`: `{"from": {"lesson": ID} | {"course": LINK} | {"program": TEXT} |
    /// {"scenario": ID}, "title": …}`. Its fields are read here; a course, or a lesson kept by a link,
    /// is read on the store's thread; the room's session is made on a program thread.
    func openRoom(_ request: HTTPRequest) -> HTTPResponse {
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        if let unknown = fields.keys.sorted().first(where: { !["from", "title"].contains($0) }) {
            return PlaygroundError(.invalidValue, "`\(unknown.prefix(40))` is not a field here; the fields are from and title.").response
        }
        guard case .object(let from) = fields["from"], from.count == 1, let entry = from.first, case .string(let text) = entry.value,
            ["lesson", "course", "program", "scenario"].contains(entry.key)
        else {
            return PlaygroundError(.invalidValue, Self.roomSources).response
        }
        var given: String?
        if let field = fields["title"] {
            guard case .string(let text) = field, let clean = Self.displayText(text, maximum: Self.maxLinkTitle) else {
                return PlaygroundError(.invalidValue, Self.displayTextRule("title", maximum: Self.maxLinkTitle)).response
            }
            given = clean
        }
        let (client, title) = (request.clientAddress, given)
        // A lesson or a course is a built-in lesson or a link kept here; a program or a scenario is given.
        guard let kind = LinkKind(rawValue: entry.key), kind == .lesson || kind == .course else {
            return onProgramThread(request) {
                makeRoom(RoomSource.read(kind: entry.key, text, rules: programRules), course: nil, title: title, client)
            }
        }
        guard RoomCourse.needsStore(kind: kind, id: text, lessons: lessons) else {
            guard let course = RoomCourse.builtIn(text, lessons: lessons) else {
                return PlaygroundError(.invalidValue, "There is no lesson '\(text.prefix(40))'; GET /api/lessons lists them.").response
            }
            return onProgramThread(request) { makeRoom(course, title: title, client) }
        }
        guard let links else { return Self.storeUnavailable }
        let (lessons, metrics, sessions) = (self.lessons, self.metrics, self.sessions)
        return .deferred { respond in
            let queued = links.run(for: client) { store in
                do throws(StoreError) {
                    switch try RoomCourse.read(kind: kind, text, lessons: lessons, store: store) {
                    case .failure(.notFound(let message)), .failure(.invalid(let message)):
                        respond(PlaygroundError(.invalidValue, message).response)
                    case .success(let course):
                        let started = sessions.onProgramThread(for: client) { respond(makeRoom(course, title: title, client)) }
                        if !started { respond(programsWaiting) }
                    }
                } catch {
                    respond(links.failed(error, metrics))
                }
            }
            if !queued { respond(Self.storeBusy(links, metrics)) }
        }
    }

    static let roomSources = #"from is one of {"lesson": ID}, {"course": LINK}, {"program": TEXT} or {"scenario": ID}."#

    /// A room following `course`, at its first lesson.
    private func makeRoom(_ course: RoomCourse, title: String?, _ client: String) -> HTTPResponse {
        makeRoom(RoomSource.lesson(course.lessons[0], rules: programRules), course: course, title: title ?? course.title, client)
    }

    /// A room running `source` for the teacher at `client`, or why not.
    private func makeRoom(_ source: Result<RoomSource, RoomSource.Refusal>, course: RoomCourse?, title: String?, _ client: String) -> HTTPResponse {
        let made: RoomSource
        switch source {
        case .failure(.invalid(let message)): return PlaygroundError(.invalidValue, message).response
        case .failure(.program(let refusal)): return Self.programInvalid(refusal)
        case .success(let source): made = source
        }
        do {
            let (room, key) = try rooms.create(made, title: title ?? made.title, course: course, address: client)
            metrics.roomOpened(course == nil ? made.origin.kind : course!.title == nil ? "lesson" : "course")
            var response = HTTPResponse.json(RoomOpened(room: room, teacherKey: key), status: 201)
            response.addHeader("Location", "/api/rooms/\(room.id)")
            response.addHeader("Set-Cookie", RoomKeys.cookie(key, role: .teacher, room: room.id, seconds: Self.cookieSeconds(rooms.limits)))
            return response
        } catch {
            return roomRefusal(error)
        }
    }

    func roomRefusal(_ error: RoomStore.CreationError) -> HTTPResponse {
        switch error {
        case .tooManyRooms(let limit):
            return PlaygroundError(
                .tooManyRooms,
                "The playground has \(limit) rooms open, as many as it allows (--max-rooms); try again later.",
                retryAfterSeconds: 60
            ).response
        case .tooManyForClient(let limit):
            return PlaygroundError(
                .rateLimited,
                "Your address has \(limit) rooms open, as many as one address may (--rooms-per-client); end one first.",
                retryAfterSeconds: 60
            ).response
        case .shareUsed(let share):
            return PlaygroundError(
                .shareUsed,
                "The playground is nearly full of rooms: the last of them go one to an address, and yours has "
                    + "\(share == 1 ? "one" : "\(share)") already; end one first, or try again later.",
                retryAfterSeconds: 60
            ).response
        case .session(let refusal):
            return self.refusal(refusal)
        }
    }

    /// What one failed join costs an address, in joins: a guess at a code, or a request that is no
    /// join. A class of forty joining at once from one school address spends 40 of the burst
    /// (`--join-burst`, 100); a scanner's guesses are refused after ten, and then come one in ten
    /// seconds (`--join-attempts-per-second`, 1).
    static let joinFailureCost = 10.0

    /// A join's preflight, before the body is read: a place in the address's rate of joins, a code
    /// of the right form (case, spaces and dashes ignored; else 404, as for a code no room has),
    /// and a JSON body. Whether a room has the code is decided after the body is read, so that a
    /// request that is no join learns nothing of the rooms.
    func requireJoinCode(_ request: inout HTTPRequest) -> Lookup<JoinCode> {
        let client = request.clientAddress
        guard joinAttempts.allow(client) else {
            metrics.roomJoinRefused("rate_limited")
            return .refused(
                PlaygroundError(
                    .rateLimited,
                    "Too many joins from your address, or too many codes no room has (--join-attempts-per-second); wait, then check the code.",
                    retryAfterSeconds: joinAttempts.retryAfterSeconds(cost: Self.joinFailureCost)
                )
            )
        }
        guard let code = RoomKeys.code(from: request.parameters["code"] ?? "") else {
            joinFailed(client, "unknown_room")
            return .refused(Self.noRoomWithCode)
        }
        if let refusal = Self.jsonOnly(request) ?? Self.smallBody(request, at: Self.maxJoinBodyBytes, "A join") {
            joinFailed(client, "invalid_value")
            return .refused(refusal)
        }
        return .proceed(JoinCode(code: code))
    }

    /// The most bytes of a join's body: `{"name": …}`, a name of at most 160 bytes escaped.
    static let maxJoinBodyBytes = 1_024

    /// 413 for a body larger than `limit` bytes — by its `Content-Length`, before it is read, or
    /// by what arrived — so that a route of small bodies does no work on a large one.
    static func smallBody(_ request: HTTPRequest, at limit: Int, _ what: String) -> HTTPResponse? {
        let length = request.header("Content-Length").flatMap { $0.utf8.count <= 18 ? Int($0) : Int.max } ?? request.body.count
        guard max(length, request.body.count) > limit else { return nil }
        return PlaygroundError(.payloadTooLarge, "\(what)'s body is at most \(limit) bytes.").response
    }

    /// A join's code, as its preflight read it.
    struct JoinCode: Sendable {
        let code: String
    }

    static let noRoomWithCode = PlaygroundError(.unknownRoom, "No open room has that code: check it with your teacher.").response

    /// Counts a failed join against `client`'s rate (``joinFailureCost``, less the one its
    /// preflight took).
    func joinFailed(_ client: String, _ reason: String) {
        joinAttempts.charge(client, cost: Self.joinFailureCost - 1)
        metrics.roomJoinRefused(reason)
    }

    /// `POST /api/join/{code}`: `{"name": "Ada"}`. The code is in the path, so that a proxy in front
    /// of several instances sends it to the one holding the room (`--room-code-prefix`).
    func joinRoom(_ request: HTTPRequest, _ code: String) -> HTTPResponse {
        let client = request.clientAddress
        if let refusal = Self.smallBody(request, at: Self.maxJoinBodyBytes, "A join") {
            joinFailed(client, "invalid_value")
            return refusal
        }
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error):
            joinFailed(client, "invalid_value")
            return error.response
        case .success(let object): fields = object
        }
        guard case .string(let given) = fields["name"], let name = Self.displayText(given, maximum: Self.maxStudentName) else {
            joinFailed(client, "invalid_value")
            return PlaygroundError(.invalidValue, "name is how the class sees you. " + Self.displayTextRule("A name", maximum: Self.maxStudentName))
                .response
        }
        guard let room = rooms.room(code: code) else {
            joinFailed(client, "unknown_room")
            return Self.noRoomWithCode
        }
        switch room.join(as: name) {
        case .failure(.full(let limit)):
            return PlaygroundError(.roomFull, "The room has \(limit) students, as many as it takes (--room-students).").response
        case .failure(.locked):
            return PlaygroundError(.roomLocked, "The teacher has closed the room to newcomers; ask them to open it.").response
        case .failure(.ended):
            return PlaygroundError(.unknownRoom, "That room has ended.").response
        case .success(let joined):
            metrics.roomJoined()
            var response = HTTPResponse.json(
                RoomJoined(room: room.id, name: joined.name, studentKey: joined.key, session: room.session.id),
                status: 201
            )
            response.addHeader("Set-Cookie", RoomKeys.cookie(joined.key, role: .student, room: room.id, seconds: Self.cookieSeconds(rooms.limits)))
            return response
        }
    }
}

/// `POST /api/rooms`'s answer: the teacher's key is given here once.
struct RoomOpened: Encodable {
    let room: String
    let code: String
    let join: String
    let teacherKey: String
    let session: String
    let events: String

    init(room: Room, teacherKey: String) {
        self.room = room.id
        code = room.code
        join = "/#join/\(room.code)"
        self.teacherKey = teacherKey
        session = room.session.id
        events = "/api/rooms/\(room.id)/events"
    }
}

/// `POST /api/join/{code}`'s answer.
struct RoomJoined: Encodable {
    let room: String
    let name: String
    let studentKey: String
    let session: String
}
