import MicroHTTP

extension API {
    /// Find by behaviour (docs/API.md, "Find").
    func addFindRoutes(to router: inout Router) {
        let findPreflight: Router.Preflight = { limitingFinds(&$0) }
        router.add(.post, "/api/marbles/find", preflight: findPreflight) { request in
            onProgramThread(request) { findOperators(request) }
        }
    }
}
