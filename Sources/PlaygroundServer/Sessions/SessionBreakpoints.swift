import MicroHTTP
import Scenarios

/// A virtual-clock session's breakpoints (docs/API.md, "Breakpoints"): conditions on its RAC
/// objects (``Breakpoint``) that stop its clock after the work that meets one. The Inside log
/// checks each change as it is kept; the clock, while any is set, moves one piece of work at a
/// time (``Session/advance(_:to:stoppingFor:)``), and waits at a hit until told to go on.
extension Session {
    /// Tells the watchers, once, that the clock stopped at a breakpoint: an `event: breakpoint`
    /// frame with the hit (no `id`: it is not one of the session's events).
    func announceBreakpoint() {
        guard let hit = inside.takeNewHit() else { return }
        let frame = ServerSentEvent(data: EventJSON.json(hit.json), event: "breakpoint")
        state.withLock { state in
            for watcher in state.watchers.values { watcher.send(frame) }
        }
    }

    /// The breakpoints, where the clock stopped if it did, and the clock's time, as the routes answer.
    var breakpointsJSON: JSONValue {
        let (list, hit) = inside.breakpoints
        return .object([
            "breakpoints": .array(list.map(\.json)),
            "hit": hit?.json ?? .null,
            "virtualTime": virtualTime.map(JSONValue.double) ?? .null,
        ])
    }
}

extension API {
    /// The most bytes of a breakpoints body: sixteen breakpoints with long stream names fit.
    static let maxBreakpointsBodyBytes = 8_192

    /// `GET /api/sessions/{sid}/breakpoints`.
    func sessionBreakpoints(_ session: Session) -> HTTPResponse {
        .json(session.breakpointsJSON)
    }

    /// `PUT /api/sessions/{sid}/breakpoints`: `{"breakpoints": [{"on": "swapped", "node": 17}, …]}`
    /// replaces the session's breakpoints (and goes on from one it stopped at).
    func setBreakpoints(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        guard session.clock == .virtual else {
            return PlaygroundError(.notVirtual, "Breakpoints stop a virtual clock; create the session with ?clock=virtual.").response
        }
        if let refusal = Self.jsonOnly(request) ?? Self.smallBody(request, at: Self.maxBreakpointsBodyBytes, "A breakpoints request") {
            return refusal
        }
        let fields: [String: JSONValue]
        switch Self.jsonObject(request.body) {
        case .failure(let error): return error.response
        case .success(let object): fields = object
        }
        guard fields.count == 1, case .array(let given) = fields["breakpoints"] else {
            return PlaygroundError(.invalidValue, "The body is {\"breakpoints\": [ … ]}, and nothing else.").response
        }
        guard given.count <= Breakpoint.maximumCount else {
            return PlaygroundError(.invalidValue, "A session holds at most \(Breakpoint.maximumCount) breakpoints, not \(given.count).").response
        }
        var breakpoints: [Breakpoint] = []
        for (index, value) in given.enumerated() {
            switch Breakpoint.read(value) {
            case .failure(let error): return PlaygroundError(.invalidValue, "Breakpoint \(index): \(error.message)").response
            case .success(let breakpoint): breakpoints.append(breakpoint)
            }
        }
        session.inside.setBreakpoints(breakpoints)
        return .json(session.breakpointsJSON)
    }

    /// `POST /api/sessions/{sid}/breakpoints/continue`: the clock goes on from the breakpoint it
    /// stopped at (the breakpoints stay); the next `advance` moves it.
    func continueFromBreakpoint(_ session: Session) -> HTTPResponse {
        session.inside.goOn()
        return .json(session.breakpointsJSON)
    }
}
