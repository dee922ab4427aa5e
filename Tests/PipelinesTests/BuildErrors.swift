import Reactive

@testable import Pipelines

/// What building `text` finds once it checks clean (every problem, sorted), or nothing if it builds.
func buildDiagnostics(_ text: String) -> [Diagnostic] {
    let (program, _) = PipelineLanguage.parse(text)
    do {
        _ = try Interpreter(program: program, scheduler: TestScheduler()) { _, _ in }
        return []
    } catch {
        return error.all
    }
}

/// The messages of ``buildDiagnostics(_:)``.
func buildErrors(_ text: String) -> [String] {
    buildDiagnostics(text).map(\.message)
}
