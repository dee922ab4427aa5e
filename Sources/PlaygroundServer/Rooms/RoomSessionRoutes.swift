import MicroHTTP

/// A room's session, watched through the room (docs/API.md, "Rooms"): its info, diagram stream,
/// marbles and recording answer only a key of the room — the teacher's or a student's, as a header
/// or the room's cookie — so the session's id alone opens nothing, and a removed student's
/// diagram ends with them. `/api/sessions/{sid}…` answers 403 `room_session` for it.
extension API {
    /// A preflight for the room's session: `roles` of the room (``requireRoom(_:)``), then the
    /// session as the session routes' handlers find it.
    func requireRoomSession(_ roles: Set<RoomKeys.Role>) -> Router.Preflight {
        let room = requireRoom(roles)
        return { request in
            if let refusal = room(&request) { return refusal }
            guard let access = found(request, as: RoomAccess.self) else { return Self.preflightMissing }
            request.found = RoomSessionAccess(access: access, session: access.room.session)
            return nil
        }
    }

    /// What ``requireRoomSession(_:)`` found.
    struct RoomSessionAccess: Sendable {
        let access: RoomAccess
        let session: Session
    }

    func addRoomSessionRoutes(to router: inout Router) {
        let anyone = requireRoomSession([.teacher, .student])
        // The session routes' handlers take the session a preflight found.
        let asSession: (@escaping Router.Preflight) -> Router.Preflight = { preflight in
            { request in
                if let refusal = preflight(&request) { return refusal }
                request.found = (request.found as? RoomSessionAccess)?.session
                return nil
            }
        }
        router.add(.get, "/api/rooms/{rid}/session", preflight: asSession(anyone)) { request in sessionInfo(request) }
        router.add(.get, "/api/rooms/{rid}/session/events", preflight: anyone) { request in
            guard let found = found(request, as: RoomSessionAccess.self) else { return Self.preflightMissing }
            let (room, student) = (found.access.room, found.access.student)
            var response = Self.sessionEvents(request) { watcher, since in room.watchSession(watcher, student: student, since: since) }
            renewCookie(&response, request, found.access)
            return response
        }
        router.add(.get, "/api/rooms/{rid}/session/marbles", preflight: asSession(anyone)) { request in sessionMarbles(request) }
        router.add(.get, "/api/rooms/{rid}/session/recording", preflight: readingRecording(asSession(anyone))) { request in
            sessionRecording(request)
        }
        router.add(.post, "/api/rooms/{rid}/session/recording", preflight: keepingRun(asSession(anyone))) { request in
            keepRecording(request)
        }
    }

    /// Sets the room's cookie again on `response` for the key `request` showed: a cookie lives as
    /// long as an idle room may, and every keyed stream or view renews it, so that a room in use
    /// never outlives the cookie its `EventSource` reconnects with.
    func renewCookie(_ response: inout HTTPResponse, _ request: HTTPRequest, _ access: RoomAccess) {
        let role: RoomKeys.Role = access.student == nil ? .teacher : .student
        guard let key = RoomKeys.key(of: request, as: role) else { return }
        response.addHeader("Set-Cookie", RoomKeys.cookie(key, role: role, room: access.room.id, seconds: Self.cookieSeconds(rooms.limits)))
    }
}
