import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// `POST /api/pipelines/check`: a program's problems, for an editor to show as the user types.
enum ProgramCheck {
    /// The media types a program body may have: plain text, or a form body — what `curl
    /// --data-binary` sends by default — read as the raw program too. None means text.
    static let acceptedMediaTypes: Set<String> = ["text/plain", "application/x-www-form-urlencoded"]

    /// 415 unless the body is text (decided from the head, before the body is read).
    static func checkHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        guard let type = InputBody.mediaType(of: request), !acceptedMediaTypes.contains(type) else { return nil }
        return PlaygroundError(.unsupportedMediaType, "Send the program as text/plain (or as curl --data-binary sends it); not \(type).").response
    }

    /// The diagnostics of the program in the body (an unknown operator that another library
    /// names hinted from `hints`), or 400 if the body is not UTF-8.
    static func respond(to request: HTTPRequest, hints: [String: String] = [:]) -> HTTPResponse {
        guard let program = String(validating: request.body, as: UTF8.self) else {
            return InputBodyError.invalidUTF8.response
        }
        return .json(CheckResult(diagnostics: diagnostics(of: program, hints: hints)))
    }

    /// Every problem of `text` that running it would meet before it starts: the checker's, and —
    /// when it finds no error — what only building finds (`throttle(300)`: a number where a
    /// duration is needed), found as a session finds it, without running anything. What checks
    /// clean here also builds.
    static func diagnostics(of text: String, hints: [String: String] = [:]) -> [Diagnostic] {
        let (program, diagnostics) = PipelineLanguage.parse(text, hints: hints)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return diagnostics }
        let services = ProgramSession.services(Services(scheduler: TestScheduler(), settings: ScenarioSettings()))
        let built = Interpreter.validate(program, services: services)
        return (diagnostics + built).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    private struct CheckResult: Encodable {
        let diagnostics: [Diagnostic]
    }
}
