import Foundation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// What the routes check from a request's head (preflight) and the lookups their handlers make,
/// each with the error it answers when what was named is not there.
extension API {
    // MARK: Lookups (request head only)

    // Each finds, from the head, what its route's handler works on; the router hands it to the
    // handler, typed (`Router.add(_:_:lookup:_:)`), so nothing is looked up twice.

    func requireScenario(_ request: inout HTTPRequest) -> Lookup<FoundScenario> {
        guard let scenario = scenario(request) else { return .refused(unknownScenario(request)) }
        return .proceed(FoundScenario(type: scenario))
    }

    /// The session named by the path, unless a room holds it (403 `room_session`): a room's
    /// session is watched, read and driven through the room's routes, behind the room's keys.
    func requireSession(_ request: inout HTTPRequest) -> Lookup<Session> {
        guard let session = session(request) else { return .refused(missingSession(request)) }
        if let held = Self.heldByRoom(session) { return .refused(held) }
        return .proceed(session)
    }

    /// The session of an input's route and the input's name checked, then the body's media type.
    func checkInputHead(_ request: inout HTTPRequest) -> Lookup<Session> {
        guard let session = session(request) else { return .refused(missingSession(request)) }
        if let held = Self.heldByRoom(session) { return .refused(held) }
        return checkedInput(of: session, request)
    }

    /// `session`, if the path's input is one of its inputs and the body's media type is one an
    /// input reads.
    func checkedInput(of session: Session, _ request: HTTPRequest) -> Lookup<Session> {
        let name = request.parameters["name"] ?? ""
        guard name == Session.advanceInput || session.definition.description.input(named: name) != nil else {
            return .refused(unknownInput(session, name))
        }
        return Lookup.proceed(session).unless(InputBody.checkMediaType(of: request))
    }

    /// 403 `room_session` for a session a room holds: the room's keys decide who watches it (through
    /// `/api/rooms/{rid}/session…`), and only its teacher drives or ends it.
    static func heldByRoom(_ session: Session) -> HTTPResponse? {
        guard let room = session.room else { return nil }
        return PlaygroundError(
            .roomSession,
            "A room holds this session: watch it at /api/rooms/\(room)/session/events with the room's key; "
                + "its teacher drives it with POST /api/rooms/\(room)/inputs/{name}."
        ).response
    }

    // MARK: Lookups and their errors

    func scenario(_ request: HTTPRequest) -> (any Scenario.Type)? {
        Catalogue.scenario(withID: request.parameters["id"] ?? "")
    }

    func session(_ request: HTTPRequest) -> Session? {
        sessions.session(request.parameters["sid"] ?? "")
    }

    func unknownScenario(_ request: HTTPRequest) -> HTTPResponse {
        PlaygroundError(.unknownScenario, "There is no scenario '\(request.parameters["id"] ?? "")'; GET /api/scenarios lists them.").response
    }

    /// No session here with the request's id: 421 `misdirected` when the id names another instance
    /// (a proxy sent it to the wrong one; never 404, as if the session did not exist), else 404.
    func missingSession(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.parameters["sid"] ?? ""
        guard let owner = SessionID.instance(of: id), owner != sessions.instanceID else { return unknownSession(request) }
        return Misdirected(owner: owner, what: "session").response
    }

    func unknownSession(_ request: HTTPRequest) -> HTTPResponse {
        PlaygroundError(.unknownSession, "There is no session with that id: it may have expired or been deleted.").response
    }

    func unknownInput(_ session: Session, _ name: String) -> HTTPResponse {
        let names = session.definition.description.inputs.map(\.name).joined(separator: ", ")
        return PlaygroundError(.unknownInput, "The \(session.definition.description.id) scenario has no input '\(name)'; its inputs: \(names).")
            .response
    }
}

/// 421 `misdirected`: the session or the room belongs to another instance (its id starts
/// `OWNER.`), and a proxy sent the request here; the body names the owner beside the usual error.
struct Misdirected: HTTPError {
    let owner: String
    /// "session" or "room".
    let what: String

    var status: Int { ErrorCode.misdirected.status }
    var code: String { ErrorCode.misdirected.rawValue }
    var message: String { "This \(what) belongs to the instance '\(owner)'; send its requests there (through the proxy)." }
    var response: HTTPResponse { .json(MisdirectedError(error: .init(code: code, owner: owner, message: message)), status: status) }
}

/// The body of a 421: the usual error, and the instance that owns the session or the room.
struct MisdirectedError: Encodable {
    struct Detail: Encodable {
        let code: String
        let owner: String
        let message: String
    }
    let error: Detail
}
