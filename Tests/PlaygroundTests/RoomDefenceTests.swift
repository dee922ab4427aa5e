import Foundation
import Logging
import MarbleNotation
import MicroHTTP
import Scenarios
import Testing

@testable import PlaygroundServer

/// What keeps rooms safe from a hostile client (docs/API.md, "Rooms"): joins that cannot scan
/// codes, text bounded in bytes, names made unique without probing, snapshots bounded by
/// construction, and a room's session opened by the room's keys alone.
@Suite("Rooms under attack")
struct RoomDefenceTests {
    /// The router, with its room store for the checks that look inside.
    static func router(_ configure: (inout API) -> Void = { _ in }) throws -> Router {
        try TestRouter.make { api in configure(&api) }
    }

    static func send(
        _ router: Router,
        _ method: HTTPMethod,
        _ path: String,
        _ body: String? = nil,
        from client: String = "198.51.100.1",
        headers: [String: String] = [:]
    ) -> (status: Int, json: [String: Any], response: HTTPResponse) {
        var headers = headers
        if body != nil { headers["Content-Type"] = "application/json" }
        let request = HTTPRequest(method: method, rawPath: path, headers: headers, body: Array((body ?? "").utf8), clientAddress: client)
        let response = TestRouter.respond(router, to: request)
        return (response.status, TestRouter.json(response), response)
    }

    static func openRoom(_ router: Router) throws -> (id: String, code: String, key: String, session: String) {
        let opened = send(router, .post, "/api/rooms", #"{"from": {"scenario": "search"}}"#, from: "198.51.100.200")
        try #require(opened.status == 201, "\(opened.json)")
        return (
            try #require(opened.json["room"] as? String), try #require(opened.json["code"] as? String),
            try #require(opened.json["teacherKey"] as? String), try #require(opened.json["session"] as? String)
        )
    }

    static func errorCode(_ json: [String: Any]) -> String? { (json["error"] as? [String: Any])?["code"] as? String }

    @Test func codesAreSevenCharactersReadAloud() {
        for _ in 0..<200 {
            let code = RoomKeys.makeCode()
            #expect(code.count == 7 && code.allSatisfy(RoomKeys.codeAlphabet.contains))
            #expect(RoomKeys.makeCode(prefix: "X").first == "X")
        }
        #expect(RoomKeys.code(from: "m47-33mk") == "M4733MK")
        #expect(RoomKeys.code(from: "M4733M") == nil, "six characters are no code now")
    }

    /// A request that is no join learns nothing of the rooms: the same answer for a code a room
    /// has and one no room has.
    @Test func aMalformedJoinSaysTheSameForAnyCode() throws {
        let router = try Self.router()
        let room = try Self.openRoom(router)
        let unknown = String(repeating: room.code.first == "A" ? "C" : "A", count: 7)
        for body in ["", "{}", #"{"name": ""}"#, "[1]"] {
            let real = Self.send(router, .post, "/api/join/\(room.code)", body, from: "198.51.100.2")
            let made = Self.send(router, .post, "/api/join/\(unknown)", body, from: "198.51.100.3")
            #expect(real.status == 400 && real.status == made.status, "\(body)")
            #expect(Self.errorCode(real.json) == Self.errorCode(made.json))
            #expect((real.json["error"] as? [String: Any])?["message"] as? String == (made.json["error"] as? [String: Any])?["message"] as? String)
        }
        #expect(Self.send(router, .post, "/api/join/\(unknown)", #"{"name": "Ada"}"#, from: "198.51.100.4").status == 404)
        #expect(Self.send(router, .post, "/api/join/NOT-A-CODE", #"{"name": "Ada"}"#, from: "198.51.100.5").status == 404)
    }

    /// Failed guesses cost ten joins: an address that guesses is refused after ten, while a class
    /// of forty behind one address joins at once, and other addresses are untouched.
    @Test func guessesAreRefusedAndAClassStillJoins() throws {
        let router = try Self.router()
        let room = try Self.openRoom(router)
        var refused = 0
        var found = 0
        for guess in 0..<1_000 {
            var generator = SystemRandomNumberGenerator()
            let code = String((0..<7).map { _ in RoomKeys.codeAlphabet.randomElement(using: &generator)! })
            let answer = Self.send(router, .post, "/api/join/\(code)", #"{"name": "Eve \#(guess)"}"#, from: "203.0.113.66")
            if answer.status == 429 { refused += 1 }
            if answer.status == 201 { found += 1 }
        }
        #expect(refused >= 985, "at most ten guesses of the burst, and a few refilled, are looked at: \(refused) refused")
        #expect(found == 0)
        let school = "203.0.113.7"
        for student in 1...40 {
            let joined = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "Student \#(student)"}"#, from: school)
            #expect(joined.status == 201, "student \(student): \(joined.json)")
        }
        let refusedAnswer = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "Late"}"#, from: "203.0.113.66")
        #expect(refusedAnswer.status == 429 && refusedAnswer.response.headers.contains { $0.name == "Retry-After" })
    }

    /// A name of one character and 30,000 combining marks is 60 KB: refused by its bytes.
    @Test func textIsBoundedInBytesAsWellAsCharacters() throws {
        let zalgo = "a" + String(repeating: "\u{301}", count: 30_000)
        #expect(zalgo.count == 1 && zalgo.utf8.count == 60_001)
        #expect(API.displayText(zalgo, maximum: 40) == nil)
        #expect(API.displayText("Ada" + String(repeating: "\u{301}", count: 10), maximum: 40) != nil, "a few marks are a name")
        #expect(API.displayText(String(repeating: "😀", count: 40), maximum: 40) != nil, "forty of the widest characters fit")
        #expect(API.displayText(String(repeating: "😀", count: 41), maximum: 40) == nil)
        let router = try Self.router()
        let room = try Self.openRoom(router)
        let large = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "\#(zalgo)"}"#, from: "198.51.100.9")
        #expect(large.status == 413 && Self.errorCode(large.json) == "payload_too_large", "refused before its JSON is read")
        let marks = "a" + String(repeating: "\u{301}", count: 200)
        let long = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "\#(marks)"}"#, from: "198.51.100.9")
        #expect(long.status == 400 && Self.errorCode(long.json) == "invalid_value")
        #expect(((long.json["error"] as? [String: Any])?["message"] as? String)?.contains("160 bytes") == true)
        let title = Self.send(router, .post, "/api/rooms", #"{"from": {"scenario": "search"}, "title": "\#(zalgo)"}"#, from: "198.51.100.10")
        #expect(title.status == 400)
        #expect(API.shortened(zalgo, toBytes: 64) == "…", "a title listed is cut by its bytes")
        #expect(API.shortened("Filtering\u{1}", toBytes: 64) == "Filtering", "control characters are not shown")
    }

    /// A name taken many times is made unique by its next suffix, not by trying each again.
    @Test func namesAreMadeUniqueWithoutProbing() throws {
        let router = try Self.router { $0.joinAttempts = ClientRateLimiter(perSecond: 1, burst: 10_000) }
        let room = try Self.openRoom(router)
        var names: [String] = []
        for name in ["Ada (2)", "Ada", "Ada", "Ada", "Ada (3)"] {
            let joined = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "\#(name)"}"#)
            try #require(joined.status == 201)
            names.append(try #require(joined.json["name"] as? String))
        }
        #expect(names == ["Ada (2)", "Ada", "Ada (3)", "Ada (4)", "Ada (3) (2)"])
    }

    /// An answer is what the page can draw: `*` and events after the end are refused.
    @Test func answersAreReadByThePagesGrammar() throws {
        #expect(LessonRuns.read("--a-|", letters: [:]) != nil)
        #expect(LessonRuns.read("(ab)-|", letters: [:]) != nil)
        for refused in ["*", "-a*", "--|-a", "((a))", "é", "-^-", "a!"] {
            #expect(LessonRuns.read(refused, letters: [:]) == nil, "\(refused)")
        }
    }

    /// A room's session is watched through the room, behind its keys: its id alone opens nothing.
    @Test func aRoomsSessionOpensOnlyWithTheRoomsKey() throws {
        let router = try Self.router()
        let room = try Self.openRoom(router)
        for path in ["", "/events", "/marbles", "/recording"] {
            let direct = Self.send(router, .get, "/api/sessions/\(room.session)\(path)")
            #expect(direct.status == 403 && Self.errorCode(direct.json) == "room_session", "\(path)")
        }
        #expect(Self.send(router, .get, "/api/rooms/\(room.id)/session").status == 401)
        let teacher = ["Authorization": "Bearer \(room.key)"]
        let info = Self.send(router, .get, "/api/rooms/\(room.id)/session", headers: teacher)
        #expect(info.status == 200 && info.json["events"] as? String == "/api/rooms/\(room.id)/session/events")
        #expect(Self.send(router, .get, "/api/rooms/\(room.id)/session/marbles", headers: teacher).status == 200)
        let joined = Self.send(router, .post, "/api/join/\(room.code)", #"{"name": "Ada"}"#)
        let student = ["Authorization": "Bearer \(try #require(joined.json["studentKey"] as? String))"]
        #expect(Self.send(router, .get, "/api/rooms/\(room.id)/session/recording", headers: student).status == 200)
        let number = try #require((joined.json["studentKey"] as? String)?.split(separator: ".").first)
        #expect(Self.send(router, .delete, "/api/rooms/\(room.id)/students/\(number)", headers: teacher).status == 204)
        #expect(Self.send(router, .get, "/api/rooms/\(room.id)/session", headers: student).status == 403, "removed: the key opens nothing")
    }

    /// The largest room there can be — every text at its bound in its most escaped form, a course of
    /// 100 lessons, 500 students, 20 distinct wrong answers of 400 bytes, a full heat map and
    /// letters — makes snapshots within ``Room/maximumSnapshotBytes``, for the teacher and a student.
    @Test func theLargestRoomsSnapshotFitsItsBound() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let sessions = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        let store = RoomStore(limits: RoomLimits(), sessions: sessions, logger: logger)
        let escaped = String(repeating: #"""#, count: API.maxLinkTitle * 4)  // two bytes each in JSON
        let lessonJSON = try JSONSerialization.data(withJSONObject: ["title": escaped])
        let lesson = try JSONDecoder().decode(Lesson.self, from: lessonJSON)
        let course = RoomCourse(
            title: escaped,
            lessons: (0..<API.maxCourseLessons).map { _ in RoomCourse.Entry(id: String(repeating: "x", count: 60), lesson: lesson) }
        )
        let source = try RoomSource.read(kind: "scenario", "search", rules: ProgramRules()).get()
        let room = try store.create(source, title: escaped, course: course, address: "198.51.100.1").room
        let letters = Dictionary(
            uniqueKeysWithValues: Marbles.valueSymbols.prefix(20).map { (String($0), JSONValue.string(String(repeating: #"\"#, count: 190))) }
        )
        let truth = String(repeating: "-", count: RoomQuestion.maximumAnswerLength)
        let question = RoomQuestion(
            id: 1,
            stream: String(repeating: "q", count: RoomQuestion.maximumStreamBytes),
            from: 0,
            frame: 100,
            frames: RoomQuestion.maximumFrames,
            letters: letters,
            truth: truth,
            truthEvents: []
        )
        #expect(question.checkBounds() == nil, "a question at its bounds is asked")
        #expect(room.ask(question))
        for student in 0..<500 {
            let name = String(repeating: "😀", count: API.maxStudentName)
            guard case .success(let joined) = room.join(as: name) else {
                Issue.record("student \(student) not let in")
                return
            }
            let frame = student % 20
            let marbles = String(repeating: "-", count: frame) + "a" + String(repeating: " ", count: RoomQuestion.maximumAnswerLength - frame - 1)
            let answered = room.answer(marbles, to: 1, from: joined.number)
            #expect((try? answered.get()) != nil)
        }
        let teacher = room.snapshotFrame(for: nil)
        let student = room.snapshotFrame(for: 500)
        #expect(teacher.utf8.count <= Room.maximumSnapshotBytes, "the teacher's: \(teacher.utf8.count) bytes")
        #expect(student.utf8.count <= Room.maximumSnapshotBytes, "a student's: \(student.utf8.count) bytes")
        #expect(student.contains("😀"), "the student's own name is in theirs")
        #expect(teacher.utf8.count > Room.maximumSnapshotBytes / 2, "the bound is near what the largest room makes: \(teacher.utf8.count)")
    }

    /// Three quarters full, the rooms left go one to an address that holds none: a few addresses
    /// opening rooms as fast as they may never take the last of them.
    @Test func aFewAddressesCannotTakeEveryRoom() throws {
        let router = try Self.router { api in
            var limits = RoomLimits()
            limits.maxRooms = 40
            limits.roomsPerClient = 20
            api = API(staticFiles: api.staticFiles, sessions: api.sessions, roomLimits: limits)
            api.roomCreations = ClientRateLimiter(perSecond: 1, burst: 100)
        }
        var opened: [String: Int] = [:]
        for attacker in ["203.0.113.1", "203.0.113.2"] {
            for _ in 0..<20 {
                let answer = Self.send(router, .post, "/api/rooms", #"{"from": {"scenario": "search"}}"#, from: attacker)
                if answer.status == 201 { opened[attacker, default: 0] += 1 } else { #expect(Self.errorCode(answer.json) == "share_used") }
            }
        }
        #expect(opened.values.reduce(0, +) == 30, "two addresses stop at three quarters: \(opened)")
        var others = 0
        for teacher in 1...40 {
            let answer = Self.send(router, .post, "/api/rooms", #"{"from": {"scenario": "search"}}"#, from: "198.51.100.\(teacher)")
            if answer.status == 201 { others += 1 }
        }
        #expect(others == 40 - opened.values.reduce(0, +), "every room left goes to other teachers")
    }

    @Test func theAccessLogShortensCapabilities() {
        let sid = "0123456789abcdef0123456789abcdef"
        #expect(AccessLogPaths.shortened("/api/sessions/\(sid)/events") == "/api/sessions/0123…/events")
        #expect(AccessLogPaths.shortened("/api/rooms/\(sid)/session/events") == "/api/rooms/0123…/session/events")
        #expect(AccessLogPaths.shortened("/api/join/M4733MK") == "/api/join/M…")
        #expect(AccessLogPaths.shortened("/s/ABCDEFGHJKMNPQRS") == "/s/ABCD…")
        #expect(AccessLogPaths.shortened("/api/links") == "/api/links")
        #expect(AccessLogPaths.shortened("/api/scenarios/search/sessions") == "/api/scenarios/search/sessions")
        #expect(AccessLogPaths.shortened("/") == "/")
        // Spelt otherwise, as the router still finds them.
        #expect(AccessLogPaths.shortened("/api/sessions//\(sid)") == "/api/sessions/0123…")
        #expect(AccessLogPaths.shortened("/api/%73essions/\(sid)") == "/api/sessions/0123…")
        #expect(AccessLogPaths.shortened("/api/SESSIONS/\(sid)") == "/api/SESSIONS/0123…")
        #expect(AccessLogPaths.shortened("/%73//ABCDEFGHJKMNPQRS") == "/s/ABCD…")
        #expect(AccessLogPaths.shortened("/api/join/A-B-C-D-E-F-G") == "/api/join/A…")
        #expect(AccessLogPaths.shortened("/api/join/ABC%20DEFG") == "/api/join/A…")
        #expect(AccessLogPaths.shortened("/api/elsewhere/\(sid)") == "/api/elsewhere/0123…", "a long run anywhere")
        #expect(AccessLogPaths.shortened("/lessons/01-reading-marbles.json") == "/lessons/01-reading-marbles.json")
    }
}
