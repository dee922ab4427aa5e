import Locking
import Reactive
import Scenarios

/// What a run on a virtual clock records of its named streams, for ``ProgramDrawing`` and
/// ``ScenarioDrawing`` alike: each event as text (a value's tree takes many times its text's
/// bytes) and each subscription's span, bounded in bytes of values (`--marbles-answer-bytes`).
/// Called from whichever thread delivered the event.
final class DrawingRecording: Sendable {
    private struct State {
        var events: [RecordedEvent] = []
        var spans: [String: [Int: ProgramDrawing.SubscriptionSpan]] = [:]
        var bytes = 0
        var isFull = false
    }

    private let state = Lock(State())
    private let answerBytes: Int

    init(answerBytes: Int) {
        self.answerBytes = answerBytes
    }

    /// Whether the answer has reached its bytes: the run stops.
    var isFull: Bool { state.withLock { $0.isFull } }

    /// Subscription `id` to `stream` began at `now`.
    func subscribed(_ stream: String, id: Int, at now: Duration) {
        state.withLock { state in
            guard !state.isFull else { return }
            guard state.bytes + 32 <= answerBytes else {
                state.isFull = true
                return
            }
            state.bytes += 32
            state.spans[stream, default: [:]][id] = ProgramDrawing.SubscriptionSpan(subscribed: now, disposed: nil)
        }
    }

    /// Subscription `id` to `stream` ended at `now`.
    func disposed(_ stream: String, id: Int, at now: Duration) {
        state.withLock { state in
            guard !state.isFull else { return }
            state.spans[stream]?[id]?.disposed = now
        }
    }

    /// What `stream` reported at `now`: a subscription's start or end, or an event — not an event
    /// without `withEvents` (a source inside a named stream is drawn by its subscriptions alone:
    /// its values are the stream's). A scenario's drawing and a program's (``ProgramSession/stageReport(_:)``)
    /// both record through here.
    func record(_ stream: String, _ report: StageReport, at now: Duration, withEvents: Bool = true) {
        switch report {
        case .subscribed(let id): subscribed(stream, id: id, at: now)
        case .disposed(let id): disposed(stream, id: id, at: now)
        case .event(let happened, let subscription):
            guard withEvents else { return }
            event(stream, kind: happened.eventKind, valueJSON: EventJSON.valueJSON(of: happened), at: now, subscription: subscription)
        }
    }

    /// An event of `stream`: its kind and its value's JSON (a `next`'s value, an `error`'s
    /// `{code, message}`), with the name of the thread that delivers it (read here, on it) and
    /// the subscription it was sent to, when known.
    func event(_ stream: String, kind: EventKind, valueJSON: String?, at now: Duration, subscription: Int? = nil) {
        state.withLock { state in
            guard !state.isFull else { return }
            let bytes = (valueJSON?.utf8.count ?? 0) + 64
            guard state.bytes + bytes <= answerBytes else {
                state.isFull = true
                return
            }
            state.bytes += bytes
            let thread = NamedScheduler.currentName ?? "session"
            state.events.append(
                RecordedEvent(
                    seq: state.events.count + 1,
                    stream: stream,
                    kind: kind,
                    valueJSON: valueJSON,
                    t: Double(now / .microseconds(1)) / 1_000,
                    causes: [],
                    subscription: subscription,
                    thread: thread
                )
            )
        }
    }

    /// The streams named `names`, in that order, drawn at `frame` milliseconds a character with
    /// `letters`, shared by them all: one value has one letter in every stream of the answer, as
    /// its legend says. Empties the recording.
    func drawings(of names: [String], frame: Double, letters: ProgramDrawing.Letters) -> [ProgramDrawing.Drawing] {
        let (events, spans) = state.withLock { state in
            defer { (state.events, state.spans) = ([], [:]) }
            return (state.events, state.spans)
        }
        var shared = letters
        return names.map { name in
            let subscriptions = (spans[name] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
            let prefix = name + "·"
            let sources = spans.filter { $0.key.hasPrefix(prefix) }.sorted { $0.key < $1.key }.map { source in
                (name: source.key, subscriptions: source.value.sorted { $0.key < $1.key }.map(\.value))
            }
            return ProgramDrawing.Drawing(
                name: name,
                events: events.filter { $0.stream == name },
                subscriptions: subscriptions,
                sources: sources,
                frame: frame,
                letters: &shared
            )
        }
    }
}
