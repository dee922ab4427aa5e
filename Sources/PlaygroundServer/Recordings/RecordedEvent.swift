import Scenarios

/// What happened to a named stream, as the SSE contract's `kind` spells it: a value or the
/// stream's end (`next`, `error`, `completed`), or a subscription's start or end (`subscribed`,
/// `disposed`: RxJS's `^` and `!`).
enum EventKind: String, Sendable {
    case next, error, completed, subscribed, disposed

    /// A subscription's start or end: not one of the stream's own events.
    var isSubscriptionMark: Bool { self == .subscribed || self == .disposed }
}

/// One event of a named stream as the playground records it, in a session's log (``EventLog``)
/// and in a run drawn on a virtual clock (``DrawingRecording``): the fields of its SSE `data:`
/// (``EventJSON``). Its value is kept as JSON text: a value's tree takes many times its text's
/// bytes.
struct RecordedEvent: Sendable {
    /// Its number in the session or the run (a session's SSE `id:`).
    let seq: Int
    let stream: String
    let kind: EventKind
    /// The JSON of a `next`'s value or an `error`'s `{code, message}`; `nil` for the other kinds.
    let valueJSON: String?
    /// Milliseconds since the session or the run started (virtual on a virtual clock).
    let t: Double
    /// The input events at the root of the propagation that sent it (``Causes``); none in a run.
    let causes: [Int]
    /// The subscription that began, delivered it, or ended (`nil` for an input's events).
    let subscription: Int?
    /// The name of the scheduler whose thread delivered it (``Session/currentThread``).
    let thread: String
}

extension StreamEvent {
    /// The event's kind as the SSE contract spells it.
    var eventKind: EventKind {
        switch self {
        case .next: .next
        case .error: .error
        case .completed: .completed
        }
    }
}
