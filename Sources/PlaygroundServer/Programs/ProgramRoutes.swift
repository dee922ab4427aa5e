import MicroHTTP
import Pipelines
import Scenarios

/// How this server runs the programs people post: their limits (`--max-value-bytes`…), the hints
/// the checker gives for names the language lacks (from the gallery), and where a limit reached
/// is counted.
struct ProgramRules: Sendable {
    var limits = StepBudget.Limits.standard
    var hints: [String: String] = [:]
    var onLimit: @Sendable (String) -> Void = { _ in }
}

extension API {
    /// The rules of the programs posted to this server.
    var programRules: ProgramRules {
        let metrics = self.metrics
        return ProgramRules(limits: programLimits, hints: gallery.operatorHints) { metrics.programReachedLimit($0) }
    }

    /// `POST /api/pipelines`: a session running the program in the body (docs/PIPELINES.md), or
    /// 400 `pipeline_invalid` with every problem found.
    func runProgram(_ request: HTTPRequest) -> HTTPResponse {
        guard let text = String(validating: request.body, as: UTF8.self) else { return InputBodyError.invalidUTF8.response }
        guard let clock = Session.Clock(rawValue: request.query["clock"] ?? "real") else {
            return PlaygroundError(.invalidValue, "clock must be 'real' or 'virtual'.").response
        }
        switch ProgramSession.definition(from: text, rules: programRules) {
        case .failure(let refusal):
            return Self.programInvalid(refusal)
        case .success(let (definition, _)):
            let session: Session
            do {
                session = try sessions.create(definition, clientAddress: request.clientAddress, clock: clock, pool: .programs)
            } catch {
                return refusal(error)
            }
            var response = HTTPResponse.json(SessionCreated(session), status: 201)
            response.addHeader("Location", "/api/sessions/\(session.id)")
            return response
        }
    }
}

extension API {
    /// `POST /api/marbles?until=MS&inside=MS&since=MS`: the program in the body run on a virtual
    /// clock, its streams drawn (``ProgramDrawing``), and with `inside` its RAC objects at that
    /// instant (``InsideGraph``, the changes after `since`); 400 `pipeline_invalid` with every
    /// problem when it cannot run.
    func drawMarbles(_ request: HTTPRequest) -> HTTPResponse {
        guard let text = String(validating: request.body, as: UTF8.self) else { return InputBodyError.invalidUTF8.response }
        guard case .success(let until) = Self.until(request) else { return Self.untilInvalid }
        let inside: (at: Double, since: Double)?
        switch Self.insideInstants(request, instant: "inside") {
        case .failure(let refusal): return refusal.response
        case .success((let at?, let since)):
            guard since <= at else { return Self.sinceAfterAt.response }
            inside = (at, since)
        case .success((nil, _)):
            guard request.query["since"] == nil else { return Self.sinceWithoutInside.response }
            inside = nil
        }
        switch ProgramDrawing.run(text, until: until, rules: programRules, answerBytes: marblesAnswerBytes, inside: inside) {
        case .failure(let refusal):
            return Self.programInvalid(refusal)
        case .success(let answer):
            if let truncation = answer.truncation { metrics.marblesTruncated(truncation.reason.rawValue) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(answer.json.utf8)))
        }
    }

    /// 400 `pipeline_invalid`, with the diagnostics, for a program that cannot run.
    static func programInvalid(_ refusal: ProgramRefusal) -> HTTPResponse {
        let errors = refusal.diagnostics.filter { $0.severity == .error }.count
        let message = "The program cannot run: \(errors) problem\(errors == 1 ? "" : "s") (see diagnostics)."
        return .json(
            ProgramInvalid(error: .init(code: ErrorCode.pipelineInvalid.rawValue, message: message, diagnostics: refusal.diagnostics)),
            status: ErrorCode.pipelineInvalid.status
        )
    }
}

/// An error object with a program's diagnostics: 400 `pipeline_invalid`, and 422 `program_invalid`
/// for a program kept by a link.
struct ProgramInvalid: Encodable {
    struct Body: Encodable {
        let code: String
        let message: String
        let diagnostics: [Diagnostic]
    }

    let error: Body
}

/// `GET /api/pipelines/examples`.
struct ExampleList: Encodable {
    let examples: [Example]
}

/// `GET /api/lessons`.
struct LessonList: Encodable {
    let lessons: [LessonIndex.Entry]
}
