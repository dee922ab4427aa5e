import MicroHTTP
import Pipelines

extension API {
    /// Programs of the pipeline language (docs/API.md, "Programs"): run as a session, checked as
    /// the user types, and the examples.
    func addProgramRoutes(to router: inout Router) {
        // Checking and building a program (up to 64 KiB of it) is done on a program thread, not on
        // the polling thread every connection shares.
        router.add(.post, "/api/pipelines", preflight: limitingPrograms(programRuns, "run")) { request in
            onProgramThread(request) { runProgram(request) }
        }
        router.add(.get, "/api/pipelines/examples") { _ in
            .json(ExampleList(examples: Example.all))
        }
        router.add(.post, "/api/pipelines/check", preflight: limitingPrograms(programChecks, "checked")) { request in
            onProgramThread(request) { ProgramCheck.respond(to: request, hints: gallery.operatorHints) }
        }
    }
}
