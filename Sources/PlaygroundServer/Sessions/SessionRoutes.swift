import Foundation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// The handlers of the session routes: creating a session, its information, its inputs (and a
/// virtual clock's `advance`), and the refusals they share.
extension API {

    func createSession(_ request: HTTPRequest, _ scenario: any Scenario.Type) -> HTTPResponse {
        guard let clock = Session.Clock(rawValue: request.query["clock"] ?? "real") else {
            return PlaygroundError(.invalidValue, "clock must be 'real' or 'virtual'.").response
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
    func curlShortcut(_ request: HTTPRequest, _ scenario: any Scenario.Type) -> HTTPResponse {
        if request.method == .head { return Self.eventStream { _ in } }
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
            return Self.eventStream { watcher in
                watcher.send(announcement)
                session.watch(watcher)
            }
        }
    }

    func sessionInfo(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        .json(SessionInfo(session))
    }

    func sendInput(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        let name = request.parameters["name"] ?? ""
        let raw: RawInput
        switch InputBody.parse(request) {
        case .failure(let error): return error.response
        case .success(let value): raw = value
        }
        let kind = request.query["event"] ?? "next"
        if name == Session.advanceInput {
            guard kind == "next" else {
                return PlaygroundError(.invalidValue, "advance is the virtual clock, not a signal: it cannot complete or fail.").response
            }
            return advance(session, by: raw)
        }
        let event: InputEvent
        switch kind {
        case "next":
            switch session.definition.description.value(for: name, from: raw) {
            case .failure(.unknownInput): return unknownInput(session, name)
            case .failure(.invalidValue(let message)): return PlaygroundError(.invalidValue, message).response
            case .success(let value): event = .next(value)
            }
        case "completed":
            event = .completed
        case "error":
            switch InputFailure.error(for: name, from: raw) {
            case .failure(.invalidValue(let message)), .failure(.unknownInput(let message)):
                return PlaygroundError(.invalidValue, message).response
            case .success(let error): event = .error(error)
            }
        default:
            return PlaygroundError(.invalidValue, "event takes next, completed or error.").response
        }
        // An input's value is a value like any a program makes, and is bounded the same way.
        if let json = EventJSON.valueJSON(of: event.recorded), json.utf8.count > programLimits.valueBytes {
            metrics.memoryLimitReached("value_too_large")
            return PlaygroundError(
                .valueTooLarge,
                "The input's value is \(json.utf8.count) bytes as JSON; values are at most \(programLimits.valueBytes)."
            ).response
        }
        return queued(session.send(event, to: name), input: name)
    }

    /// The `advance` input: moves a virtual-clock session's clock by a number of milliseconds.
    func advance(_ session: Session, by raw: RawInput) -> HTTPResponse {
        guard session.clock == .virtual else {
            return PlaygroundError(.notVirtual, "advance moves a virtual clock; create the session with ?clock=virtual.").response
        }
        guard let milliseconds = OutsideNumbers.advanceMilliseconds(raw) else {
            return PlaygroundError(.invalidValue, "advance takes a number of milliseconds from 0 to \(Int(Session.maximumAdvance)).").response
        }
        return queued(session.advance(by: milliseconds), input: Session.advanceInput)
    }

    /// 202 when queued; 429 when the session's input rate is exceeded; 409 for an ended input.
    func queued(_ result: Result<Void, Session.InputRefusal>, input name: String) -> HTTPResponse {
        switch result {
        case .success: return accepted
        case .failure(.rateExceeded): return inputRateExceeded()
        case .failure(.heldAtQuestion(let ceiling)):
            return PlaygroundError(
                .questionOpen,
                "The room this session was taken from asks a question from \(Int(ceiling)) ms: "
                    + "its clock waits there until the answer is revealed."
            ).response
        case .failure(.clockExhausted):
            return PlaygroundError(
                .clockExhausted,
                "This session's virtual clock has moved \(Int(Session.maximumVirtualTime / 60_000)) minutes, as far as a session's may; start a new session."
            ).response
        case .failure(.atBreakpoint(let hit)):
            return PlaygroundError(
                .atBreakpoint,
                "The clock stopped at breakpoint \(hit.index) at \(hit.time) ms; "
                    + "POST /api/sessions/{sid}/breakpoints/continue to go on."
            ).response
        case .failure(.inputEnded):
            return PlaygroundError(.inputEnded, "The input '\(name)' has completed or failed; its signal takes nothing more. Start a new session.")
                .response
        }
    }

    /// `202 {"accepted": true}`: the input is queued.
    private var accepted: HTTPResponse { .json(["accepted": true], status: 202) }

    /// The programs' routes' head check: the media type (415), then the client's rate (429),
    /// before the body is read, so a refused client costs no more than its head.
    func limitingPrograms(_ limiter: ClientRateLimiter, _ what: String) -> Router.Preflight {
        { request in
            if let refusal = ProgramCheck.checkHead(&request) { return refusal }
            return Self.rateLimited(request, by: limiter, "Too many programs \(what) from your address; slow down.")
        }
    }

    /// `work`'s response, computed on a program thread in the client's turn (``FairWorkQueue``);
    /// 429 `share_used` at once when the client has its share of work waiting already.
    /// 429 `share_used`: the client has as many programs waiting for the programs' threads as it may.
    var programsWaiting: HTTPResponse {
        PlaygroundError(
            .shareUsed,
            "Your address has \(sessions.programWork.perClient) programs waiting to be checked, run or drawn; "
                + "wait for their answers before sending more.",
            retryAfterSeconds: 1
        ).response
    }

    func onProgramThread(_ request: HTTPRequest, _ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        let client = request.clientAddress
        guard sessions.programWork.reserve(for: client) else { return programsWaiting }
        return .deferred { [sessions] respond in sessions.onProgramThread(reservedFor: client) { respond(work()) } }
    }

    /// A session's event stream, `watch` given the stream, where it resumes and whether it asked
    /// for the RAC objects' changes too (`inside=1`): `since` is `Last-Event-ID` for a client
    /// that cannot set the header on its first connection (a browser's EventSource); the header,
    /// sent on a reconnect, wins.
    static func sessionEvents(
        _ request: HTTPRequest,
        watch: @escaping @Sendable (EventStream, OutsideNumbers.ResumePoint?, Bool) -> Void
    ) -> HTTPResponse {
        let since = request.query["since"].map(OutsideNumbers.resumePoint)
        if case .some(nil) = since {
            return PlaygroundError(.invalidValue, "since takes an event number, 0 or more, or E.N as an inside frame's id.").response
        }
        let inside: Bool
        switch request.query["inside"] {
        case nil, "0": inside = false
        case "1": inside = true
        default: return PlaygroundError(.invalidValue, "inside takes 1 (stream the RAC objects' changes too) or 0.").response
        }
        return eventStream { watcher in watch(watcher, since ?? nil, inside) }
    }

    /// `GET …/marbles?frame=MS`: the session's streams in marble notation (``SessionMarbles``).
    func sessionMarbles(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        let frame = request.query["frame"].map(OutsideNumbers.frame)
        if case .some(nil) = frame {
            return PlaygroundError(.invalidValue, "frame takes milliseconds from 1 to 60000.").response
        }
        switch SessionMarbles.render(session, frame: frame ?? nil) {
        case .success(let text): return .text(text)
        case .failure(let tooFine):
            return PlaygroundError(
                .invalidValue,
                "At that frame a line would pass \(SessionMarbles.maximumFrames) characters; use frame=\(Int(tooFine.minimum)) or more."
            ).response
        }
    }

    /// 429 with `message` when `limiter` refuses the request's client; `nil` when it allows it.
    static func rateLimited(_ request: HTTPRequest, by limiter: ClientRateLimiter, _ message: String) -> HTTPResponse? {
        guard !limiter.allow(request.clientAddress) else { return nil }
        return PlaygroundError(.rateLimited, message, retryAfterSeconds: limiter.retryAfterSeconds).response
    }

    /// 429 when `client` has kept more bytes of links this hour than `--link-bytes-per-hour`
    /// allows (`bytes` are the new link's), or — once the store holds three quarters of
    /// `--max-store-bytes` — more than its fair share of what is left (``storeShare(for:)``);
    /// `nil` when it may keep them.
    func linkBytesRefusal(_ bytes: Int, for client: String) -> HTTPResponse? {
        // A link that would not fit at all is the store's to refuse (507 storage_full), not a share's.
        if let share = storeShare(for: client), let stored = links?.lastMeasuredBytes, stored + bytes <= maxStoreBytes,
            linkBytes.spent(by: client).spent + Double(bytes) > Double(share)
        {
            metrics.linkRefused("share_used")
            return PlaygroundError(
                .shareUsed,
                "The store is nearly full (--max-store-bytes), and your address has kept its share of what is left this hour; "
                    + "try again later.",
                retryAfterSeconds: 600
            ).response
        }
        guard !linkBytes.allow(client, cost: Double(bytes)) else { return nil }
        metrics.linkRefused("rate_limited")
        return PlaygroundError(
            .rateLimited,
            "Your address has kept its share of the store's bytes for the last hour (--link-bytes-per-hour); try again later.",
            retryAfterSeconds: linkBytes.retryAfterSeconds(cost: Double(bytes))
        ).response
    }

    /// The most bytes `client` may have kept in the last hour, once the store holds three quarters
    /// of `--max-store-bytes`: what is left over the addresses that kept links this hour (itself
    /// among them) and one more, the next to come — so that a few addresses, each within its
    /// hourly rate, never take the last of a shared store. `nil` below three quarters, or before
    /// the store was measured.
    func storeShare(for client: String) -> Int? {
        guard let stored = links?.lastMeasuredBytes, stored >= maxStoreBytes / 4 * 3 else { return nil }
        let (spent, spenders) = linkBytes.spent(by: client)
        let holders = spenders + (spent == 0 ? 1 : 0)
        return max(0, maxStoreBytes - stored) / (holders + 1)
    }

    /// 415 unless a find's body is JSON (or untyped, as curl's `--data-binary` may send it), and
    /// 429 past the client's rate of finds.
    func limitingFinds(_ request: inout HTTPRequest) -> HTTPResponse? {
        if let type = InputBody.mediaType(of: request), !["application/json", "application/x-www-form-urlencoded"].contains(type) {
            return PlaygroundError(.unsupportedMediaType, "Send the find as application/json; not \(type).").response
        }
        return Self.rateLimited(request, by: marbleFinds, "Too many finds from your address; slow down.")
    }

    /// 429 for a session whose input rate is exceeded.
    func inputRateExceeded() -> HTTPResponse {
        PlaygroundError(.rateLimited, "Too many inputs for this session; slow down.", retryAfterSeconds: 1).response
    }

    func create(
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
            return PlaygroundError(.tooManySessions, "The playground has as many live sessions as it allows; try again later.", retryAfterSeconds: 30)
                .response
        case .tooManyPrograms:
            return PlaygroundError(
                .tooManySessions,
                "The playground runs as many program sessions as it allows; try again later (the built-in scenarios still open).",
                retryAfterSeconds: 30
            ).response
        case .shareUsed(let share):
            metrics.memoryLimitReached("share_used")
            return PlaygroundError(.shareUsed, Self.message(for: share), retryAfterSeconds: 30).response
        case .tooManyForClient:
            return PlaygroundError(.rateLimited, "Too many live sessions from your address; delete some or let them expire.", retryAfterSeconds: 30)
                .response
        case .draining:
            return Self.draining
        case .eventMemoryFull:
            metrics.memoryLimitReached("server_busy")
            return PlaygroundError(.serverBusy, "The playground's memory is short; try again in a moment.", retryAfterSeconds: 30).response
        }
    }

    /// Why a client's share refuses it, in its own terms: what it holds, and what to do.
    static func message(for share: SessionStore.Share) -> String {
        switch share {
        case .programSessions(let limit):
            return "Your address has \(limit) program sessions open, its share of the playground's; "
                + "delete some (DELETE /api/sessions/{id}) or let them expire."
        case .eventBytes(let held, let share):
            return "Your address's program sessions keep \(held / 1_048_576) MiB of events, "
                + "its share (\(share / 1_048_576) MiB) of what all program sessions may keep now; "
                + "delete some of your sessions or try again later."
        case .memory:
            return "Your address's programs sent the most data lately while the playground's memory is short; "
                + "try again when they have ended."
        }
    }

    /// 503 `draining`: this instance is being replaced and takes no new sessions; another one will.
    static var draining: HTTPResponse {
        PlaygroundError(.draining, "This server is being replaced and takes no new sessions; try again in a moment.", retryAfterSeconds: 5).response
    }
}

struct CatalogueBody: Encodable {
    let scenarios: [PipelineDescription]
}

/// 201 for a new session, of a scenario or of a program: where its events and inputs are, and,
/// for a program, what it defines (left out for a scenario).
struct SessionCreated: Encodable {
    let session: String
    let scenario: String
    let events: String
    let inputs: String
    let pipeline: ProgramSummary?

    init(_ session: Session) {
        self.session = session.id
        scenario = session.definition.description.id
        events = session.eventsPath
        inputs = session.inputsPath
        pipeline = session.definition.programSummary
    }
}

struct SessionInfo: Encodable {
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
    /// Each stream's and stage's subscriptions so far and live now: a named stream is cold, so
    /// each is its work run again.
    let subscriptions: [String: Session.SubscriptionTally]
    /// The `seq` of the last event `subscriptions` counts.
    let subscriptionsCountedTo: Int

    init(_ session: Session) {
        self.session = session.id
        scenario = session.definition.description.id
        clock = session.clock.rawValue
        created = session.created.formatted(.iso8601)
        watchers = session.watcherCount
        events = session.eventsPath
        inputs = session.inputsPath
        pipeline = session.definition.programSummary
        virtualTime = session.virtualTime
        (subscriptions, subscriptionsCountedTo) = session.subscriptionCounts
    }
}

/// A scenario type a preflight found (a metatype is not `Sendable` by itself as `any Sendable`).
struct FoundScenario: Sendable {
    let type: any Scenario.Type
}
