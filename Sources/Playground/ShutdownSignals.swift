import Dispatch
import Foundation
import Locking
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

/// Holds the signal sources, for the life of the process. `DispatchSourceSignal` is not marked
/// `Sendable`; the sources are only stored here (under the lock), never used again.
private final class SignalSourceBox: @unchecked Sendable {
    private let sources = Lock<[any DispatchSourceSignal]>([])

    func withLock(_ body: (inout [any DispatchSourceSignal]) -> Void) {
        sources.withLock(body)
    }
}
