import MicroHTTP

/// A room's session, watched through the room (docs/API.md, "Rooms"): its info, diagram stream,
/// marbles and recording answer only a key of the room — the teacher's or a student's, as a header
/// or the room's cookie — so the session's id alone opens nothing, and a removed student's
/// diagram ends with them. `/api/sessions/{sid}…` answers 403 `room_session` for it.
extension API {
    /// A preflight for the room's session: `roles` of the room (``requireRoom(_:)``), then the
    /// session as the session routes' handlers find it.
    func requireRoomSession(_ roles: Set<RoomKeys.Role>) -> Router.Finder<RoomSessionAccess> {
        let room = requireRoom(roles)
        return { request in room(&request).map { RoomSessionAccess(access: $0, session: $0.room.session) } }
    }

    /// What ``requireRoomSession(_:)`` found.
    struct RoomSessionAccess: Sendable {
        let access: RoomAccess
        let session: Session
    }

    func addRoomSessionRoutes(to router: inout Router) {
        let anyone = requireRoomSession([.teacher, .student])
        // The diagram is the audience's too: the class's material, up to the question's start.
        let watching = requireRoomSession([.teacher, .student, .audience])
        let watched: Router.Finder<Session> = { request in watching(&request).map(\.session) }
        // The session routes' handlers take the room's session.
        let session: Router.Finder<Session> = { request in anyone(&request).map(\.session) }
        router.add(.get, "/api/rooms/{rid}/session", lookup: watched) { request, session in sessionInfo(request, session) }
        router.add(.get, "/api/rooms/{rid}/session/events", lookup: watching) { request, found in
            let (room, student) = (found.access.room, found.access.student)
            var response = Self.sessionEvents(request) { watcher, since, inside in
                room.watchSession(watcher, student: student, since: since, inside: inside)
            }
            renewCookie(&response, request, found.access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/session/marbles", lookup: watched) { request, session in sessionMarbles(request, session) }
        router.add(.get, "/api/rooms/{rid}/session/recording", lookup: readingRecording(session)) { request, session in
            sessionRecording(request, session)
        }
        router.add(.post, "/api/rooms/{rid}/session/recording", lookup: keepingRun(session)) { request, session in
            keepRecording(request, session)
        }
    }

    /// Sets the room's cookie again on `response` for the key `request` showed: a cookie lives as
    /// long as an idle room may, and every keyed stream or view renews it, so that a room in use
    /// never outlives the cookie its `EventSource` reconnects with.
    func renewCookie(_ response: inout HTTPResponse, _ request: HTTPRequest, _ access: RoomAccess) {
        let role = access.role
        guard let key = RoomKeys.key(of: request, as: role) else { return }
        response.addHeader("Set-Cookie", RoomKeys.cookie(key, role: role, room: access.room.id, seconds: Self.cookieSeconds(rooms.limits)))
    }
}
