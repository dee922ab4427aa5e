import DequeModule
import Locking

/// Work waiting for the programs' threads — checking, building and drawing posted programs —
/// taken from each client's queue in turn (round robin), so that one client's flood waits behind
/// its own work and never delays another client's by more than one piece per client. "Client"
/// is the address the rate limits use.
///
/// Each client may have at most ``perClient`` pieces waiting or running; beyond, ``reserve(for:)``
/// refuses, so a route can answer at once. Every accepted piece gets one turn on a thread (``takeNext()``), in the order the
/// round robin says, not necessarily its own.
///
/// Thread safety: one lock, a leaf.
final class FairWorkQueue: Sendable {
    typealias Work = @Sendable () -> Void

    /// Pieces of work one client may have waiting or running.
    let perClient: Int
    private let state = Lock(State())

    private struct State {
        var waiting: [String: Deque<Work>] = [:]
        /// Clients with work waiting, in turn order.
        var turns: Deque<String> = []
        /// Pieces each client has waiting or running.
        var inFlight: [String: Int] = [:]
    }

    init(perClient: Int) {
        self.perClient = max(1, perClient)
    }

    /// Takes a place for one more piece of `client`'s work; `false` if the client has
    /// ``perClient`` pieces waiting or running already. Each place taken is used by exactly one
    /// ``enqueue(_:for:)``.
    func reserve(for client: String) -> Bool {
        state.withLock { state in
            guard state.inFlight[client, default: 0] < perClient else { return false }
            state.inFlight[client, default: 0] += 1
            return true
        }
    }

    /// Queues `work` for `client`, in the place ``reserve(for:)`` took.
    func enqueue(_ work: @escaping Work, for client: String) {
        state.withLock { state in
            if state.waiting[client, default: []].isEmpty { state.turns.append(client) }
            state.waiting[client, default: []].append(work)
        }
    }

    /// The next piece of work, from the client whose turn it is, wrapped so that it counts as
    /// done when it returns; `nil` when nothing waits.
    func takeNext() -> Work? {
        state.withLock { state -> Work? in
            guard let client = state.turns.popFirst(), let work = state.waiting[client]?.popFirst() else { return nil }
            if state.waiting[client]?.isEmpty == true {
                state.waiting[client] = nil
            } else {
                state.turns.append(client)
            }
            return { [self] in
                work()
                finished(client)
            }
        }
    }

    /// Pieces `client` has waiting or running.
    func inFlight(for client: String) -> Int { state.withLock { $0.inFlight[client] ?? 0 } }

    private func finished(_ client: String) {
        state.withLock { state in
            let left = state.inFlight[client, default: 1] - 1
            state.inFlight[client] = left > 0 ? left : nil
        }
    }
}
