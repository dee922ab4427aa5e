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
        var nextID = 1
        /// The live subscriptions: each one's id and the name it reports under.
        var live: [Int: String] = [:]
        /// Live subscriptions by name; a name subscribed to and now at 0 has ended.
        var liveByName: [String: Int] = [:]
        /// Subscriptions ever made, by name.
        var made: [String: Int] = [:]
    }

    private let state = Lock(State())
    private let reporter: Interpreter.Reporter
    private let limit: Int

    /// A probe reporting to `reporter`, with at most `limit` live subscriptions in all.
    init(limit: Int, reporter: @escaping Interpreter.Reporter) {
        self.limit = limit
        self.reporter = reporter
    }

    /// The error a subscription past the limit receives.
    static func tooManySubscriptions(_ limit: Int) -> PipelineFailure {
        PipelineFailure(
            code: "too_many_subscriptions",
            message:
                "More than \(limit) subscriptions are live in this program. A named stream is cold, as RAC's signals are: each stream that reads it subscribes to it again, and to what it reads. Share a stream read by many with `replayLazily()` or `publish().autoconnect()`."
        )
    }

    /// `signal`, each subscription reported under `name` with an id of its own: `subscribed`
    /// first (before it subscribes to what it reads), then its events, then `disposed` when it
    /// ends or is disposed, whichever comes first. Without `values`, its `next` events are not
    /// reported (a source inside a stream: its values are the stream's or a stage's already).
    func reporting(_ signal: Signal<Value, PipelineFailure>, as name: String, values: Bool = true) -> Signal<Value, PipelineFailure> {
        Signal { [self] subscriber in
            let (id, isAdmitted) = join(name)
            Inspection.label(subscriber, .subscription(signal: name, id: id))
            report(name, .subscribed(id))
            guard isAdmitted else {
                let failure = Self.tooManySubscriptions(limit)
                report(name, .event(.error(failure), subscription: id))
                report(name, .disposed(id))
                subscriber.sendError(failure)
                return nil
            }
            // The probe's own objects, labelled so: RAC's subscription would have neither.
            let ending = ActionDisposable { [self] in if leave(id) { report(name, .disposed(id)) } }
            Inspection.label(ending, .probe(signal: name, id: id))
            subscriber.add(ending)
            let forwarder = Subscriber<Value, PipelineFailure> { [self] event in
                if values || event.isTerminating { report(name, .event(event, subscription: id)) }
                subscriber.send(event)
            }
            Inspection.label(forwarder, .probe(signal: name, id: id))
            return signal.subscribe(forwarder, for: subscriber)
        }
    }

    /// Sends what a subscription of `name` did to the reporter, unless the program was halted.
    private func report(_ name: String, _ report: StreamReport) {
        guard !state.withLock({ $0.isHalted }) else { return }
        reporter(name, report)
    }

    /// Stops reporting. Returns each of `names` that has not ended — with the ids of its live
    /// subscriptions, or none if it was never subscribed to — which the caller ends with ``end``.
    func halt(_ names: [String]) -> [(name: String, subscriptions: [Int])] {
        state.withLock { state in
            state.isHalted = true
            var byName: [String: [Int]] = [:]
            for (id, name) in state.live { byName[name, default: []].append(id) }
            state.live = [:]  // their disposals are reported by ``end``, not as they happen
            return names.compactMap { name in
                if let ids = byName[name] { return (name, ids.sorted()) }
                return state.made[name] == nil ? (name, []) : nil
            }
        }
    }

    /// Reports, after ``halt(_:)``, what ends a subscription of `name`.
    func end(_ name: String, _ report: StreamReport) {
        reporter(name, report)
    }

    /// Each name's subscriptions so far and live now.
    func counts() -> [String: SubscriptionCount] {
        state.withLock { state in
            state.made.reduce(into: [:]) { counts, entry in
                counts[entry.key] = SubscriptionCount(subscriptions: entry.value, live: state.liveByName[entry.key] ?? 0)
            }
        }
    }

    /// A new subscription's id, and whether it is within the limit (and so live).
    private func join(_ name: String) -> (Int, Bool) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.made[name, default: 0] += 1
            guard state.live.count < limit else { return (id, false) }
            state.live[id] = name
            state.liveByName[name, default: 0] += 1
            return (id, true)
        }
    }

    /// Ends subscription `id`; whether it was live (not ended before, nor by a halt).
    private func leave(_ id: Int) -> Bool {
        state.withLock { state in
            guard let name = state.live.removeValue(forKey: id) else { return false }
            state.liveByName[name, default: 1] -= 1
            return true
        }
    }
}

/// What a program's probe reports of one subscription to a stream or stage.
public typealias StreamReport = SubscriptionReport<Value, PipelineFailure>

/// How often a stream or stage of a program has been subscribed to: every subscription is its
/// work run again (a named stream is cold), so this is how a learner counts side effects.
public struct SubscriptionCount: Sendable, Equatable, Encodable {
    /// Subscriptions made since the program started.
    public let subscriptions: Int
    /// Subscriptions not yet ended or disposed.
    public let live: Int
}
