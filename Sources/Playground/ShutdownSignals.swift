import Dispatch
import Foundation
import Logging

/// Turns SIGINT and SIGTERM into a graceful shutdown followed by exit status 0.
enum ShutdownSignals {
    /// Installs the handlers; `shutdown` runs once, on a Dispatch queue, then the process exits.
    static func install(logger: Logger, shutdown: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "playground.signals")
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                logger.notice("received \(number == SIGINT ? "SIGINT" : "SIGTERM"), shutting down")
                shutdown()
                exit(0)
            }
            source.resume()
            return source
        }
        retainedSources.withLock { $0 = sources }
    }

    /// Keeps the signal sources alive for the life of the process.
    private static let retainedSources = SignalSourceBox()
}

/// Holds the signal sources; a class so it can be a `static let` without a global Mutex, which trips
/// ThreadSanitizer's access-race check on this toolchain.
private final class SignalSourceBox: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()

    func withLock(_ body: (inout [any DispatchSourceSignal]) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&sources)
    }
}
