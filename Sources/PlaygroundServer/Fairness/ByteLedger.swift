import Locking

/// Bytes held by many clients together, against one limit, shared fairly: what all program
/// sessions keep of their events. "Client" is the address the rate limits use (the trusted
/// proxy's `X-Forwarded-For` behind one).
///
/// Each client's fair share is the limit divided by the clients holding bytes. Over the limit, a
/// client above its share sheds its own oldest events as it adds new ones (``mustShed(_:)``), and
/// when a client within its share adds, the client holding the most beyond its share is asked to
/// shed (``init(limit:askToShed:)``) — so a newcomer takes room from the largest holder, never
/// the other way round, and nobody is refused while the largest holder can give. A new session
/// is refused only to a client that already holds its share of a full ledger
/// (``admits(_:reserving:)``).
///
/// Never the server's memory: the heap watchdog (`SessionStore`) guards that.
/// Thread safety: one lock, a leaf — `askToShed` is called outside it.
final class ByteLedger: Sendable {
    /// The most bytes held together.
    let limit: Int
    private let state = Lock(State())
    private let askToShed: @Sendable (String) -> Void

    private struct State {
        var total = 0
        var byClient: [String: Int] = [:]
        /// Clients asked to shed whose sessions have not all done so yet.
        var shedding: Set<String> = []
    }

    /// A ledger of `limit` bytes; `askToShed` is called, outside the ledger's lock, with a
    /// client whose sessions should let go of their oldest events (`EventLog.forgetOldest()`),
    /// and must call ``finishedShedding(_:)`` once they have.
    init(limit: Int, askToShed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.limit = limit
        self.askToShed = askToShed
    }

    /// Bytes held now, by everyone.
    var total: Int { state.withLock { $0.total } }

    /// Bytes `client` holds now.
    func held(by client: String) -> Int { state.withLock { $0.byClient[client] ?? 0 } }

    /// `client`'s fair share now: the limit over the clients holding bytes, `client` counted.
    func share(of client: String) -> Int {
        state.withLock { state in fairShare(clients: state.byClient.count + (state.byClient[client] == nil ? 1 : 0)) }
    }

    private func fairShare(clients: Int) -> Int { limit / max(1, clients) }

    /// Adds `bytes` held by `client` (negative: lets go of them). Over the limit, asks the
    /// client holding the most beyond its share to shed, unless `client` is that one (it sheds
    /// its own, ``mustShed(_:)``).
    func add(_ bytes: Int, for client: String) {
        let toAsk = state.withLock { state -> String? in
            state.total += bytes
            let held = (state.byClient[client] ?? 0) + bytes
            state.byClient[client] = held > 0 ? held : nil
            guard bytes > 0, state.total > limit else { return nil }
            let share = fairShare(clients: state.byClient.count)
            guard held <= share else { return nil }
            guard let (largest, holding) = state.byClient.max(by: { $0.value < $1.value }), holding > share,
                !state.shedding.contains(largest)
            else { return nil }
            state.shedding.insert(largest)
            return largest
        }
        if let toAsk { askToShed(toAsk) }
    }

    /// Whether `client` should let go of its oldest events: the ledger is over its limit and
    /// `client` holds more than its share.
    func mustShed(_ client: String) -> Bool {
        state.withLock { state in
            state.total > limit && (state.byClient[client] ?? 0) > fairShare(clients: state.byClient.count)
        }
    }

    /// Whether `client` may open one more session that may keep `reserve` bytes: always while
    /// that fits, and otherwise only if `client` holds less than its share — the room is then
    /// taken from whoever holds more.
    func admits(_ client: String, reserving reserve: Int) -> Bool {
        state.withLock { state in
            guard state.total > limit - reserve else { return true }
            let held = state.byClient[client] ?? 0
            return held + reserve <= fairShare(clients: state.byClient.count + (held == 0 ? 1 : 0))
        }
    }

    /// Says that the sessions of `client`, asked to shed, have done so.
    func finishedShedding(_ client: String) {
        state.withLock { _ = $0.shedding.remove(client) }
    }
}

/// One client's side of a ``ByteLedger``: what a session adds and lets go of, in its client's name.
struct LedgerAccount: Sendable {
    let ledger: ByteLedger
    let client: String

    /// Adds `bytes` (negative: lets go of them).
    func add(_ bytes: Int) { ledger.add(bytes, for: client) }

    /// Whether the client should let go of its oldest events (``ByteLedger/mustShed(_:)``).
    var mustShed: Bool { ledger.mustShed(client) }
}
