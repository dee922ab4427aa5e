import MicroHTTP

extension API {
    /// Marble runs on a virtual clock (docs/API.md, "Marbles and drawing"): a program's, a
    /// scenario's, and "Copy as a test".
    func addDrawingRoutes(to router: inout Router) {
        let scenarioMarbles: Router.Finder<FoundScenario> = { limitingScenarioMarbles(&$0) }
        router.add(.post, "/api/scenarios/{id}/marbles", lookup: scenarioMarbles) { request, found in
            onProgramThread(request) { drawScenarioMarbles(request, found.type) }
        }
        router.add(.post, "/api/marbles", preflight: limitingPrograms(marbleRuns, "drawn")) { request in
            onProgramThread(request) { drawMarbles(request) }
        }
        router.add(.post, "/api/marbles/test", preflight: limitingPrograms(marbleRuns, "drawn")) { request in
            onProgramThread(request) { writeMarbleTest(request) }
        }
    }
}
