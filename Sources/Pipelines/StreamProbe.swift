import Locking
import Reactive

/// Reports a program's named streams and stages to its sink, one subscription at a time: a named
/// stream is a cold signal, as in RAC, so each stream that reads it subscribes to it again and
/// each subscription's events are reported under its name. The probe also counts the live
/// subscriptions of each name (what a halted program ends with an error) and refuses a
/// subscription past the program's limit: cold streams read by many multiply work, and
/// `b = combineLatest(a, a)` nested twenty deep would make a million subscriptions.
final class StreamProbe: Sendable {
    private struct State {
        var isHalted = false
        /// Live subscriptions by name; a name subscribed to and now at 0 has ended.
        var live: [String: Int] = [:]
        /// Subscriptions ever made, by name.
        var made: [String: Int] = [:]
        var total = 0
    }

    private let state = Lock(State())
    private let sink: Interpreter.Sink
    private let limit: Int

    /// A probe reporting to `sink`, with at most `limit` live subscriptions in all.
    init(limit: Int, sink: @escaping Interpreter.Sink) {
        self.limit = limit
        self.sink = sink
    }

    /// The error a subscription past the limit receives.
    static func tooManySubscriptions(_ limit: Int) -> PipelineFailure {
        PipelineFailure(
            code: "too_many_subscriptions",
            message:
                "More than \(limit) subscriptions are live in this program. A named stream is cold, as RAC's signals are: each stream that reads it subscribes to it again, and to what it reads. Share a stream read by many with `replayLazily()` or `publish().autoconnect()`."
        )
    }

    /// `signal`, each subscription's events reported under `name`.
    func reporting(_ signal: Signal<Value, PipelineFailure>, as name: String) -> Signal<Value, PipelineFailure> {
        Signal { [self] subscriber in
            guard join(name) else {
                let failure = Self.tooManySubscriptions(limit)
                report(name, .error(failure))
                subscriber.sendError(failure)
                return nil
            }
            subscriber.add(ActionDisposable { [self] in leave(name) })
            return signal.subscribe(
                Subscriber { [self] event in
                    report(name, event)
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }

    /// Sends `event` of `name` to the sink, unless the program was halted.
    func report(_ name: String, _ event: Event<Value, PipelineFailure>) {
        guard !state.withLock({ $0.isHalted }) else { return }
        sink(name, event)
    }

    /// Stops reporting; returns the names of `names` that have not ended — a live subscription,
    /// or none yet — which the caller ends.
    func halt(_ names: [String]) -> [String] {
        state.withLock { state in
            state.isHalted = true
            return names.filter { (state.live[$0] ?? 1) > 0 }
        }
    }

    /// Sends the error that ends `name` after ``halt()``.
    func end(_ name: String, with failure: PipelineFailure) {
        sink(name, .error(failure))
    }

    /// Each name's subscriptions so far and live now.
    func counts() -> [String: SubscriptionCount] {
        state.withLock { state in
            state.made.reduce(into: [:]) { counts, entry in
                counts[entry.key] = SubscriptionCount(subscriptions: entry.value, live: state.live[entry.key] ?? 0)
            }
        }
    }

    private func join(_ name: String) -> Bool {
        state.withLock { state in
            guard state.total < limit else { return false }
            state.total += 1
            state.live[name, default: 0] += 1
            state.made[name, default: 0] += 1
            return true
        }
    }

    private func leave(_ name: String) {
        state.withLock { state in
            state.total -= 1
            state.live[name, default: 1] -= 1
        }
    }
}

/// How often a stream or stage of a program has been subscribed to: every subscription is its
/// work run again (a named stream is cold), so this is how a learner counts side effects.
public struct SubscriptionCount: Sendable, Equatable, Encodable {
    /// Subscriptions made since the program started.
    public let subscriptions: Int
    /// Subscriptions not yet ended or disposed.
    public let live: Int
}
