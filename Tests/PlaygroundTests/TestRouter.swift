import Foundation
import Logging
import MicroHTTP
import Scenarios

@testable import PlaygroundServer

/// The playground's routes without a server, as the suites that call them build them: the page's
/// folder, a quiet logger, one session thread, and `configure` for the API's settings (its rate
/// limits, its gallery); and a request answered as the server answers it, preflight first.
enum TestRouter {
    /// The API's router over `Public/`, after `configure`.
    static func make(_ configure: (inout API) throws -> Void = { _ in }) throws -> Router {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        var api = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store)
        try configure(&api)
        return api.router()
    }

    /// `request` through `router`: its route's preflight, then its handler, a deferred answer waited for.
    static func respond(_ router: Router, to request: HTTPRequest) -> HTTPResponse {
        var request = request
        return (router.preflight(resolving: &request) ?? router.respond(to: request)).resolved()
    }

    /// A response's body as a JSON object (empty when it is not one).
    static func json(_ response: HTTPResponse) -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
