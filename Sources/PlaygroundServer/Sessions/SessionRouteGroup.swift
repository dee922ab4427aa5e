import MicroHTTP

extension API {
    /// A session's routes (docs/API.md, "Sessions", "Recordings"): its information, events,
    /// marbles, recording and inputs, each found from the request's head.
    func addSessionRoutes(to router: inout Router) {
        let session: Router.Finder<Session> = { requireSession(&$0) }
        router.add(.get, "/api/sessions/{sid}", lookup: session) { request, session in
            sessionInfo(request, session)
        }
        router.add(.delete, "/api/sessions/{sid}", lookup: session) { _, session in
            sessions.delete(session.id)
            return HTTPResponse(status: 204)
        }
        router.add(.get, "/api/sessions/{sid}/events", lookup: session) { request, session in
            Self.sessionEvents(request) { watcher, since, inside in session.watch(watcher, since: since, inside: inside) }
        }
        router.add(.get, "/api/sessions/{sid}/marbles", lookup: session) { request, session in sessionMarbles(request, session) }
        router.add(.get, "/api/sessions/{sid}/inside", lookup: session) { request, session in sessionInside(request, session) }
        router.add(.get, "/api/sessions/{sid}/breakpoints", lookup: session) { _, session in sessionBreakpoints(session) }
        router.add(.put, "/api/sessions/{sid}/breakpoints", lookup: session) { request, session in setBreakpoints(request, session) }
        router.add(.post, "/api/sessions/{sid}/breakpoints/continue", lookup: session) { _, session in continueFromBreakpoint(session) }
        router.add(.get, "/api/sessions/{sid}/recording", lookup: readingRecording(session)) { request, session in
            sessionRecording(request, session)
        }
        router.add(.post, "/api/sessions/{sid}/recording", lookup: keepingRun(session)) { request, session in
            keepRecording(request, session)
        }
        let input: Router.Finder<Session> = { checkInputHead(&$0) }
        router.add(.post, "/api/sessions/{sid}/inputs/{name}", lookup: input) { request, session in
            sendInput(request, session)
        }
    }
}
