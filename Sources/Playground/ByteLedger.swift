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

/// Tells, once per program and reason, that a program reached a limit: a stream of it ended with
/// `value_too_large` or `budget_exceeded` (a halt ends every stream; it is one halt).
final class LimitReports: Sendable {
    /// The codes of the endings that are limits.
    static let codes: Set<String> = ["value_too_large", "budget_exceeded"]
    private let seen = Lock<Set<String>>([])
    private let report: @Sendable (String) -> Void

    init(_ report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    /// Reports `code` if it is a limit's and was not reported before.
    func ended(with code: String) {
        guard Self.codes.contains(code), seen.withLock({ $0.insert(code).inserted }) else { return }
        report(code)
    }
}
