import Locking

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
