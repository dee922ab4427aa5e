import Locking

/// Bytes held by many owners together, against one limit: what all program sessions keep of their
/// events. Each owner adds what it keeps and subtracts what it lets go; the server refuses new
/// owners while there is no room for one more (``hasRoom(for:)``), and an owner that would pass the
/// limit lets go of its oldest events instead. Never the server's memory.
final class ByteLedger: Sendable {
    /// The most bytes held together.
    let limit: Int
    private let held = Lock(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    var total: Int { held.withLock { $0 } }

    /// Whether more than ``limit`` is held.
    var isOverLimit: Bool { held.withLock { $0 > limit } }

    /// Whether `bytes` more would fit.
    func hasRoom(for bytes: Int) -> Bool {
        held.withLock { $0 <= limit - bytes }
    }

    /// Adds `bytes` (negative: lets go of them).
    func add(_ bytes: Int) {
        held.withLock { $0 += bytes }
    }
}
