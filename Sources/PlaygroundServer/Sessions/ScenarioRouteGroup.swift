import MicroHTTP
import Scenarios

extension API {
    /// The catalogue of built-in scenarios, a session of one, and curl's shortcut to its events
    /// (docs/API.md, "Scenarios").
    func addScenarioRoutes(to router: inout Router) {
        router.add(.get, "/api/scenarios") { [catalogue] _ in
            catalogue.all.response
        }
        router.add(.get, "/api/scenarios/{id}") { [catalogue] request in
            catalogue.entries[request.parameters["id"] ?? ""]?.response ?? unknownScenario(request)
        }
        let scenario: Router.Finder<FoundScenario> = { requireScenario(&$0) }
        router.add(.post, "/api/scenarios/{id}/sessions", lookup: scenario) { request, found in
            createSession(request, found.type)
        }
        router.add(.get, "/api/scenarios/{id}/events", lookup: scenario) { request, found in
            curlShortcut(request, found.type)
        }
    }
}
