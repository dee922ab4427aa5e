import MicroHTTP
import Reactive
import Scenarios

/// The playground's HTTP contract (DESIGN.md §3): the catalogue, the event streams and the page.
struct API: Sendable {
    let staticFiles: StaticFiles
    let settings: ScenarioSettings

    /// Sent with every response: no sniffing, a same-origin-only page, no referrer.
    static let securityHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy",
         "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
    ]

    func router() -> Router {
        var router = Router()
        router.add(.get, "/healthz") { _ in .text("ok") }
        router.add(.get, "/api/scenarios") { _ in
            .json(CatalogueBody(scenarios: Catalogue.scenarios.map { $0.description }))
        }
        router.add(.get, "/api/scenarios/{id}") { request in
            guard let scenario = Catalogue.scenario(withID: request.parameters["id"] ?? "") else {
                return unknownScenario(request)
            }
            return .json(scenario.description)
        }
        router.add(.get, "/api/scenarios/{id}/events") { [settings] request in
            guard let scenario = Catalogue.scenario(withID: request.parameters["id"] ?? "") else {
                return unknownScenario(request)
            }
            return .eventStream { stream in
                ScenarioFeed.start(scenario, settings: settings, on: stream)
            }
        }
        router.setFallback(staticFiles.respond(to:))
        return router
    }

    private func unknownScenario(_ request: HTTPRequest) -> HTTPResponse {
        .error(status: 404, code: "unknown_scenario",
               message: "There is no scenario '\(request.parameters["id"] ?? "")'; GET /api/scenarios lists them.")
    }
}

private struct CatalogueBody: Encodable {
    let scenarios: [ScenarioDescription]
}
