import Foundation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// The playground's HTTP contract (docs/API.md, Public/openapi.json): the catalogue, sessions, inputs, event streams
/// and the page. Error precedence: 404 (route, scenario, session, input), 405, 415, 413, 400 — the
/// first four are decided from the request head (preflight), before any body is read.
struct API: Sendable {
    let staticFiles: StaticFiles
    let sessions: SessionStore
    var metrics = PlaygroundMetrics()
    /// The catalogue and each scenario's entry, encoded once: they never change while the server
    /// runs (encoded per request, with every scenario's source, they held `/api/scenarios` to
    /// about 2,600 requests a second).
    let catalogue = PreparedCatalogue()
    /// Programs run (`POST /api/pipelines`) per client (`--program-runs-per-second`).
    var programRuns = ClientRateLimiter(perSecond: 2, burst: 10)
    /// Programs checked (`POST /api/pipelines/check`) per client: an editor checking as the user
    /// types (`--program-checks-per-second`).
    var programChecks = ClientRateLimiter(perSecond: 20, burst: 20)
    /// Marble programs run (`POST /api/marbles`) per client: a gallery redrawing as a marble is
    /// dragged (`--marble-runs-per-second`).
    var marbleRuns = ClientRateLimiter(perSecond: 20, burst: 20)
    /// What a program may do and make (`--max-value-bytes`), in sessions and marble runs alike.
    var programLimits = StepBudget.Limits.standard
    /// The largest answer of `POST /api/marbles` (`--marbles-answer-bytes`).
    var marblesAnswerBytes = MarblesRun.defaultAnswerBytes

    /// Sent with every response: no sniffing, a same-origin-only page, no referrer.
    static let securityHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("Referrer-Policy", "no-referrer"),
    ]

    func router() -> Router {
        var router = Router()
        router.add(.get, "/healthz") { _ in .text("ok") }
        // Ready while new sessions are taken: a proxy or an orchestrator stops sending new users
        // to an instance that drains (--drain-seconds).
        router.add(.get, "/readyz") { [sessions] _ in
            sessions.isDraining ? Self.draining : .text("ready")
        }
        router.add(.get, "/metrics") { [metrics, sessions] _ in
            HTTPResponse(
                status: 200,
                headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                body: .bytes(metrics.render(sessions: sessions.count))
            )
        }
        router.add(.get, "/api/scenarios") { [catalogue] _ in
            catalogue.all.response
        }
        router.add(.get, "/api/scenarios/{id}") { [catalogue] request in
            catalogue.entries[request.parameters["id"] ?? ""]?.response ?? unknownScenario(request)
        }
        router.add(.post, "/api/scenarios/{id}/sessions", preflight: requireScenario) { request in
            createSession(request)
        }
        router.add(.get, "/api/scenarios/{id}/events", preflight: requireScenario) { request in
            curlShortcut(request)
        }
        router.add(.get, "/api/sessions/{sid}", preflight: requireSession) { request in
            sessionInfo(request)
        }
        router.add(.delete, "/api/sessions/{sid}", preflight: requireSession) { request in
            guard let session = found(request, as: Session.self) else { return Self.preflightMissing }
            sessions.delete(session.id)
            return HTTPResponse(status: 204)
        }
        router.add(.get, "/api/sessions/{sid}/events", preflight: requireSession) { request in
            guard let session = found(request, as: Session.self) else { return Self.preflightMissing }
            return .eventStream { stream in session.watch(stream) }
        }
        router.add(.get, "/api/sessions/{sid}/marbles", preflight: requireSession) { request in
            guard let session = found(request, as: Session.self) else { return Self.preflightMissing }
            let frame = request.query["frame"].map(OutsideNumbers.frame)
            if case .some(nil) = frame {
                return .error(status: 400, code: "invalid_value", message: "frame takes milliseconds from 1 to 60000.")
            }
            switch MarblesView.render(session, frame: frame ?? nil) {
            case .success(let text): return .text(text)
            case .failure(let tooFine):
                return .error(
                    status: 400,
                    code: "invalid_value",
                    message: "At that frame a line would pass \(MarblesView.maximumFrames) characters; use frame=\(Int(tooFine.minimum)) or more."
                )
            }
        }
        router.add(.post, "/api/sessions/{sid}/inputs/{name}", preflight: checkInputHead) { request in
            sendInput(request)
        }
        // Checking and building a program (up to 64 KiB of it) is done on a program thread, not on
        // the polling thread every connection shares.
        router.add(.post, "/api/pipelines", preflight: limitingPrograms(programRuns, "run")) { request in
            .deferred { respond in sessions.onProgramThread { respond(runProgram(request)) } }
        }
        router.add(.get, "/api/pipelines/examples") { _ in
            .json(ExampleList(examples: Example.all))
        }
        router.add(.post, "/api/pipelines/check", preflight: limitingPrograms(programChecks, "checked")) { request in
            .deferred { respond in sessions.onProgramThread { respond(PipelineCheck.respond(to: request)) } }
        }
        router.add(.post, "/api/marbles", preflight: limitingPrograms(marbleRuns, "drawn")) { request in
            .deferred { respond in sessions.onProgramThread { respond(drawMarbles(request)) } }
        }
        router.setFallback(staticFiles.respond(to:))
        return router
    }

    // MARK: Handlers

    private func createSession(_ request: HTTPRequest) -> HTTPResponse {
        guard let scenario = found(request, as: FoundScenario.self)?.type else { return Self.preflightMissing }
        guard let clock = Session.Clock(rawValue: request.query["clock"] ?? "real") else {
            return .error(status: 400, code: "invalid_value", message: "clock must be 'real' or 'virtual'.")
        }
        switch create(scenario, for: request, clock: clock) {
        case .failure(let error):
            return refusal(error)
        case .success(let session):
            var response = HTTPResponse.json(SessionCreated(session), status: 201)
            response.addHeader("Location", "/api/sessions/\(session.id)")
            return response
        }
    }

    /// `GET /api/scenarios/{id}/events`: a new session, streamed at once, announced by a first
    /// `session` event (no `id:`). `HEAD` creates nothing.
    private func curlShortcut(_ request: HTTPRequest) -> HTTPResponse {
        guard let scenario = found(request, as: FoundScenario.self)?.type else { return Self.preflightMissing }
        if request.method == .head { return .eventStream { _ in } }
        switch create(scenario, for: request) {
        case .failure(let error):
            return refusal(error)
        case .success(let session):
            let announcement = ServerSentEvent(
                data: EventJSON.json(
                    .object([
                        "session": .string(session.id),
                        "scenario": .string(scenario.description.id),
                        "events": .string(session.eventsPath),
                        "inputs": .string(session.inputsPath),
                    ])
                ),
                event: "session"
            )
            return .eventStream { stream in
                stream.send(announcement)
                session.watch(stream)
            }
        }
    }

    private func sessionInfo(_ request: HTTPRequest) -> HTTPResponse {
        guard let session = found(request, as: Session.self) else { return Self.preflightMissing }
        return .json(SessionInfo(session))
    }

    private func sendInput(_ request: HTTPRequest) -> HTTPResponse {
        guard let session = found(request, as: Session.self) else { return Self.preflightMissing }
        let name = request.parameters["name"] ?? ""
        let raw: RawInput
        switch InputBody.parse(request) {
        case .failure(let error): return error.response
        case .success(let value): raw = value
        }
        let kind = request.query["event"] ?? "next"
        if name == Session.advanceInput {
            guard kind == "next" else {
                return .error(status: 400, code: "invalid_value", message: "advance is the virtual clock, not a signal: it cannot complete or fail.")
            }
            return advance(session, by: raw)
        }
        let event: InputEvent
        switch kind {
        case "next":
            switch session.pipeline.description.value(for: name, from: raw) {
            case .failure(.unknownInput): return unknownInput(session, name)
            case .failure(.invalidValue(let message)): return .error(status: 400, code: "invalid_value", message: message)
            case .success(let value): event = .next(value)
            }
        case "completed":
            event = .completed
        case "error":
            switch InputFailure.error(for: name, from: raw) {
            case .failure(.invalidValue(let message)), .failure(.unknownInput(let message)):
                return .error(status: 400, code: "invalid_value", message: message)
            case .success(let error): event = .error(error)
            }
        default:
            return .error(status: 400, code: "invalid_value", message: "event takes next, completed or error.")
        }
        // An input's value is a value like any a program makes, and is bounded the same way.
        if let json = EventJSON.valueJSON(of: event.recorded), json.utf8.count > programLimits.valueBytes {
            metrics.memoryLimitReached("value_too_large")
            return .error(
                status: 413,
                code: "value_too_large",
                message: "The input's value is \(json.utf8.count) bytes as JSON; values are at most \(programLimits.valueBytes)."
            )
        }
        return queued(session.send(event, to: name), input: name)
    }

    /// The `advance` input: moves a virtual-clock session's clock by a number of milliseconds.
    private func advance(_ session: Session, by raw: RawInput) -> HTTPResponse {
        guard session.clock == .virtual else {
            return .error(
                status: 400,
                code: "not_virtual",
                message: "advance moves a virtual clock; create the session with ?clock=virtual."
            )
        }
        guard let milliseconds = OutsideNumbers.advanceMilliseconds(raw) else {
            return .error(
                status: 400,
                code: "invalid_value",
                message: "advance takes a number of milliseconds from 0 to \(Int(Session.maximumAdvance))."
            )
        }
        return queued(session.advance(by: milliseconds), input: Session.advanceInput)
    }

    /// 202 when queued; 429 when the session's input rate is exceeded; 409 for an ended input.
    private func queued(_ result: Result<Void, Session.InputRefusal>, input name: String) -> HTTPResponse {
        switch result {
        case .success: return accepted
        case .failure(.rateExceeded): return inputRateExceeded()
        case .failure(.clockExhausted):
            return .error(
                status: 409,
                code: "clock_exhausted",
                message:
                    "This session's virtual clock has moved \(Int(Session.maximumVirtualTime / 60_000)) minutes, as far as a session's may; start a new session."
            )
        case .failure(.inputEnded):
            return .error(
                status: 409,
                code: "input_ended",
                message: "The input '\(name)' has completed or failed; its signal takes nothing more. Start a new session."
            )
        }
    }

    /// `202 {"accepted": true}`: the input is queued.
    private var accepted: HTTPResponse { .json(["accepted": true], status: 202) }

    /// The programs' routes' head check: the media type (415), then the client's rate (429),
    /// before the body is read, so a refused client costs no more than its head.
    private func limitingPrograms(_ limiter: ClientRateLimiter, _ what: String) -> Router.Preflight {
        { request in
            if let refusal = PipelineCheck.checkHead(&request) { return refusal }
            guard !limiter.allow(request.clientAddress) else { return nil }
            return HTTPResponse.error(
                status: 429,
                code: "rate_limited",
                message: "Too many programs \(what) from your address; slow down.",
                retryAfterSeconds: limiter.retryAfterSeconds
            )
        }
    }

    /// 429 for a session whose input rate is exceeded.
    private func inputRateExceeded() -> HTTPResponse {
        HTTPResponse.error(
            status: 429,
            code: "rate_limited",
            message: "Too many inputs for this session; slow down.",
            retryAfterSeconds: 1
        )
    }

    private func create(
        _ scenario: any Scenario.Type,
        for request: HTTPRequest,
        clock: Session.Clock = .real
    ) -> Result<Session, SessionStore.CreationError> {
        Result { () throws(SessionStore.CreationError) in
            try sessions.create(.scenario(scenario), clientAddress: request.clientAddress, clock: clock)
        }
    }

    func refusal(_ error: SessionStore.CreationError) -> HTTPResponse {
        switch error {
        case .tooManySessions:
            return .error(
                status: 503,
                code: "too_many_sessions",
                message: "The playground has as many live sessions as it allows; try again later.",
                retryAfterSeconds: 30
            )
        case .tooManyForClient:
            return .error(
                status: 429,
                code: "rate_limited",
                message: "Too many live sessions from your address; delete some or let them expire.",
                retryAfterSeconds: 30
            )
        case .draining:
            return Self.draining
        case .eventMemoryFull:
            metrics.memoryLimitReached("server_busy")
            return .error(
                status: 503,
                code: "server_busy",
                message: "The playground's program sessions keep as many events as it allows; try again when some have ended.",
                retryAfterSeconds: 30
            )
        }
    }

    /// 503 `draining`: this instance is being replaced and takes no new sessions; another one will.
    static var draining: HTTPResponse {
        HTTPResponse.error(
            status: 503,
            code: "draining",
            message: "This server is being replaced and takes no new sessions; try again in a moment.",
            retryAfterSeconds: 5
        )
    }

    // MARK: Preflight checks (request head only)

    // Each preflight notes what it found in `request.found`; its handler takes it from there
    // (`found(_:)`) rather than looking it up again.

    private func requireScenario(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let scenario = scenario(request) else { return unknownScenario(request) }
        request.found = FoundScenario(type: scenario)
        return nil
    }

    private func requireSession(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let session = session(request) else { return missingSession(request) }
        request.found = session
        return nil
    }

    private func checkInputHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let session = session(request) else { return missingSession(request) }
        let name = request.parameters["name"] ?? ""
        guard name == Session.advanceInput || session.pipeline.description.input(named: name) != nil else {
            return unknownInput(session, name)
        }
        request.found = session
        return InputBody.checkMediaType(of: request)
    }

    /// What the route's preflight found. The router runs a route's preflight before its handler,
    /// so `nil` means a route was added without its preflight: answered 500, never a trap.
    private func found<Found>(_ request: HTTPRequest, as _: Found.Type = Found.self) -> Found? {
        request.found as? Found
    }

    private static let preflightMissing = HTTPResponse.error(
        status: 500,
        code: "internal_error",
        message: "This route's preflight did not run; please report it."
    )

    // MARK: Lookups and their errors

    private func scenario(_ request: HTTPRequest) -> (any Scenario.Type)? {
        Catalogue.scenario(withID: request.parameters["id"] ?? "")
    }

    private func session(_ request: HTTPRequest) -> Session? {
        sessions.session(request.parameters["sid"] ?? "")
    }

    private func unknownScenario(_ request: HTTPRequest) -> HTTPResponse {
        .error(
            status: 404,
            code: "unknown_scenario",
            message: "There is no scenario '\(request.parameters["id"] ?? "")'; GET /api/scenarios lists them."
        )
    }

    /// No session here with the request's id: 421 `misdirected` when the id names another instance
    /// (a proxy sent it to the wrong one; never 404, as if the session did not exist), else 404.
    private func missingSession(_ request: HTTPRequest) -> HTTPResponse {
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

    private func unknownSession(_ request: HTTPRequest) -> HTTPResponse {
        .error(
            status: 404,
            code: "unknown_session",
            message: "There is no session with that id: it may have expired or been deleted."
        )
    }

    private func unknownInput(_ session: Session, _ name: String) -> HTTPResponse {
        let names = session.pipeline.description.inputs.map(\.name).joined(separator: ", ")
        return .error(
            status: 404,
            code: "unknown_input",
            message: "The \(session.pipeline.description.id) scenario has no input '\(name)'; its inputs: \(names)."
        )
    }
}

private struct CatalogueBody: Encodable {
    let scenarios: [ScenarioDescription]
}

private struct SessionCreated: Encodable {
    let session: String
    let scenario: String
    let events: String
    let inputs: String

    init(_ session: Session) {
        self.session = session.id
        scenario = session.pipeline.description.id
        events = session.eventsPath
        inputs = session.inputsPath
    }
}

private struct SessionInfo: Encodable {
    let session: String
    let scenario: String
    let clock: String
    let created: String
    let watchers: Int
    let events: String
    let inputs: String
    /// For a program's session, what the program defines (as `POST /api/pipelines` answered).
    let pipeline: ProgramSummary?
    /// For a virtual-clock session, the milliseconds its clock has reached.
    let virtualTime: Double?

    init(_ session: Session) {
        self.session = session.id
        scenario = session.pipeline.description.id
        clock = session.clock.rawValue
        created = session.created.formatted(.iso8601)
        watchers = session.watcherCount
        events = session.eventsPath
        inputs = session.inputsPath
        pipeline = session.pipeline.programSummary
        virtualTime = session.virtualTime
    }
}

/// A scenario type a preflight found (a metatype is not `Sendable` by itself as `any Sendable`).
private struct FoundScenario: Sendable {
    let type: any Scenario.Type
}

/// The catalogue's JSON, prepared once per server (a prepared response bakes in the headers of
/// the first server that serves it).
final class PreparedCatalogue: Sendable {
    /// `GET /api/scenarios`.
    let all: PreparedResponse
    /// `GET /api/scenarios/{id}`, by id.
    let entries: [String: PreparedResponse]

    init() {
        func prepared(_ response: HTTPResponse) -> PreparedResponse {
            var body: [UInt8] = []
            if case .bytes(let bytes) = response.body { body = bytes }  // what `.json` makes
            return PreparedResponse(status: response.status, headers: response.headers, body: body)
        }
        all = prepared(.json(CatalogueBody(scenarios: Catalogue.scenarios.map { $0.description })))
        entries = Dictionary(uniqueKeysWithValues: Catalogue.scenarios.map { ($0.description.id, prepared(.json($0.description))) })
    }
}

/// The body of a 421: the usual error, and the instance that owns the session.
private struct MisdirectedError: Encodable {
    struct Detail: Encodable {
        let code: String
        let owner: String
        let message: String
    }
    let error: Detail
}
