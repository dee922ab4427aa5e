import ArgumentParser
import PlaygroundServer

/// `playground`: serves the Reactive Playground's page, JSON API and live event streams. Every
/// flag and what it does lives in `PlaygroundServer` (``PlaygroundOptions``), which tests build
/// too; this is only the process's door.
@main
struct PlaygroundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "playground",
        abstract: "Serve the Reactive Playground: live reactive pipelines over HTTP and Server-Sent Events."
    )

    @OptionGroup var options: PlaygroundOptions

    @Flag(help: "Check that a playground answers /healthz on --host/--port and exit 0 if it does, 1 if not.")
    var healthcheck = false

    func run() async throws {
        if healthcheck { throw ExitCode(Playground.answersHealthCheck(options) ? 0 : 1) }
        try await Playground.serve(options)
    }
}
