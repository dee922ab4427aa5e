/// One of the three things a signal can send: RAC's `next`, `error` and `completed`.
///
/// `error` and `completed` are *terminal*: after either, a subscriber receives nothing more.
public enum Event<Value: Sendable, Failure: Error>: Sendable {
    /// A value (RAC `sendNext:`).
    case next(Value)
    /// The signal failed (RAC `sendError:`). Terminal.
    case error(Failure)
    /// The signal finished successfully (RAC `sendCompleted`). Terminal.
    case completed

    /// Whether this event ends the subscription (`error` or `completed`).
    public var isTerminating: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value of a `next` event, or `nil`.
    public var value: Value? {
        if case .next(let value) = self { return value }
        return nil
    }
}

extension Event: Equatable where Value: Equatable, Failure: Equatable {}
