import Foundation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// What the routes check from a request's head (preflight) and the lookups their handlers make,
/// each with the error it answers when what was named is not there.
extension API {
    // MARK: Preflight checks (request head only)

    // Each preflight notes what it found in `request.found`; its handler takes it from there
    // (`found(_:)`) rather than looking it up again.

    func requireScenario(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let scenario = scenario(request) else { return unknownScenario(request) }
        request.found = FoundScenario(type: scenario)
        return nil
    }

    /// The session named by the path, unless a room holds it (403 `room_session`): a room's
    /// session is watched, read and driven through the room's routes, behind the room's keys.
    func requireSession(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let session = session(request) else { return missingSession(request) }
        if let held = Self.heldByRoom(session) { return held }
        request.found = session
        return nil
    }

    func checkInputHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let session = session(request) else { return missingSession(request) }
        if let held = Self.heldByRoom(session) { return held }
        let name = request.parameters["name"] ?? ""
        guard name == Session.advanceInput || session.definition.description.input(named: name) != nil else {
            return unknownInput(session, name)
        }
        request.found = session
        return InputBody.checkMediaType(of: request)
    }

    /// 403 `room_session` for a session a room holds: the room's keys decide who watches it (through
    /// `/api/rooms/{rid}/session…`), and only its teacher drives or ends it.
    static func heldByRoom(_ session: Session) -> HTTPResponse? {
        guard let room = session.room else { return nil }
        return .error(
            status: 403,
            code: "room_session",
            message: "A room holds this session: watch it at /api/rooms/\(room)/session/events with the room's key; "
                + "its teacher drives it with POST /api/rooms/\(room)/inputs/{name}."
        )
    }

    /// What the route's preflight found. The router runs a route's preflight before its handler,
    /// so `nil` means a route was added without its preflight: answered 500, never a trap.
    func found<Found>(_ request: HTTPRequest, as _: Found.Type = Found.self) -> Found? {
        request.found as? Found
    }

    static let preflightMissing = HTTPResponse.error(
        status: 500,
        code: "internal_error",
        message: "This route's preflight did not run; please report it."
    )

    // MARK: Lookups and their errors

    func scenario(_ request: HTTPRequest) -> (any Scenario.Type)? {
        Catalogue.scenario(withID: request.parameters["id"] ?? "")
    }

    func session(_ request: HTTPRequest) -> Session? {
        sessions.session(request.parameters["sid"] ?? "")
    }

    func unknownScenario(_ request: HTTPRequest) -> HTTPResponse {
        .error(
            status: 404,
            code: "unknown_scenario",
            message: "There is no scenario '\(request.parameters["id"] ?? "")'; GET /api/scenarios lists them."
        )
    }

    /// No session here with the request's id: 421 `misdirected` when the id names another instance
    /// (a proxy sent it to the wrong one; never 404, as if the session did not exist), else 404.
    func missingSession(_ request: HTTPRequest) -> HTTPResponse {
        let id = request.parameters["sid"] ?? ""
        guard let owner = SessionID.instance(of: id), owner != sessions.instanceID else { return unknownSession(request) }
        return .json(
            MisdirectedError(
                error: .init(
                    code: "misdirected",
                    owner: owner,
                    message: "This session belongs to the instance '\(owner)'; send its requests there (through the proxy)."
                )
            ),
            status: 421
        )
    }

    func unknownSession(_ request: HTTPRequest) -> HTTPResponse {
        .error(
            status: 404,
            code: "unknown_session",
            message: "There is no session with that id: it may have expired or been deleted."
        )
    }

    func unknownInput(_ session: Session, _ name: String) -> HTTPResponse {
        let names = session.definition.description.inputs.map(\.name).joined(separator: ", ")
        return .error(
            status: 404,
            code: "unknown_input",
            message: "The \(session.definition.description.id) scenario has no input '\(name)'; its inputs: \(names)."
        )
    }
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
