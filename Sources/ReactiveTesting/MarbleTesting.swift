import Locking
import Reactive

/// Why a diagram given to ``MarbleNotation/Marbles/cold(_:values:error:frame:on:)`` or
/// ``MarbleNotation/Marbles/events(_:values:error:)`` cannot be used.
public enum MarbleDiagramError: Error, Equatable, Sendable {
    /// The diagram is not marble notation.
    case notation(Marbles.ParseError)
    /// A letter of the diagram that `values` does not give a value.
    case noValue(Character)
    /// An error `#` in a diagram of a signal that cannot fail.
    case errorThatCannotHappen
}

extension Marbles {
    /// A cold signal made from a diagram (RxJS's `cold()`): each subscription starts the diagram
    /// again, its frames counted from the subscription, as RAC's signals are. It keeps each
    /// subscription's span, to compare with subscription marbles (`"^---!"`).
    public final class Cold<Value: Sendable, Failure: Error>: Sendable {
        /// The signal that sends the diagram.
        public let signal: Signal<Value, Failure>
        private let spans: Lock<[(subscribed: Int, disposed: Int?)]>

        fileprivate init(signal: (Lock<[(subscribed: Int, disposed: Int?)]>) -> Signal<Value, Failure>) {
            let spans = Lock<[(subscribed: Int, disposed: Int?)]>([])
            self.spans = spans
            self.signal = signal(spans)
        }

        /// Each subscription so far, in the order they began, as a subscription diagram: `^` in the
        /// frame it began, `!` in the frame it was disposed of (none while it lasts).
        public var subscriptions: [String] {
            spans.withLock { spans in
                spans.map { renderSubscription(Subscription(subscribed: $0.subscribed, disposed: $0.disposed)) }
            }
        }
    }

    /// A cold signal sending `diagram` on `scheduler`: each letter or digit the value `values`
    /// gives it, `|` completion and `#` the failure `error`. One frame lasts `frame`.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// let a = try Marbles.cold("-1-2-3-|", values: ["1": 1, "2": 2, "3": 3], on: scheduler)
    /// let out = Marbles.record(a.signal.map { $0 * 10 }, on: scheduler)
    /// #expect(out == (try Marbles.events("-a-b-c-|", values: ["a": 10, "b": 20, "c": 30])))
    /// #expect(a.subscriptions == ["^------!"])
    /// ```
    public static func cold<Value: Sendable, Failure: Error>(
        _ diagram: String,
        values: [Character: Value],
        error: Failure,
        frame: Duration = .milliseconds(100),
        on scheduler: TestScheduler
    ) throws(MarbleDiagramError) -> Cold<Value, Failure> {
        try makeCold(diagram, values: values, error: error, frame: frame, on: scheduler)
    }

    private static func makeCold<Value: Sendable, Failure: Error>(
        _ diagram: String,
        values: [Character: Value],
        error: Failure?,
        frame: Duration,
        on scheduler: TestScheduler
    ) throws(MarbleDiagramError) -> Cold<Value, Failure> {
        let recorded = try read(diagram, values: values, error: error)
        return Cold { spans in
            Signal { subscriber in
                let start = scheduler.now
                let number = spans.withLock { spans in
                    spans.append((subscribed: Int(start / frame), disposed: nil))
                    return spans.count - 1
                }
                let timers = CompoundDisposable()
                timers.add(ActionDisposable { spans.withLock { $0[number].disposed = Int(scheduler.now / frame) } })
                for item in recorded {
                    timers.add(scheduler.schedule(after: frame * item.frame) { subscriber.send(item.event) })
                }
                return timers
            }
        }
    }

    /// A cold signal of a diagram whose letters are their own values, as text (`"a"`, `"1"`).
    public static func cold<Failure: Error>(
        _ diagram: String,
        error: Failure,
        frame: Duration = .milliseconds(100),
        on scheduler: TestScheduler
    ) throws(MarbleDiagramError) -> Cold<String, Failure> {
        try cold(diagram, values: ownLetters(of: diagram), error: error, frame: frame, on: scheduler)
    }

    /// A cold signal that cannot fail: its diagram has no `#`.
    public static func cold<Value: Sendable>(
        _ diagram: String,
        values: [Character: Value],
        frame: Duration = .milliseconds(100),
        on scheduler: TestScheduler
    ) throws(MarbleDiagramError) -> Cold<Value, Never> {
        try makeCold(diagram, values: values, error: Never?.none, frame: frame, on: scheduler)
    }

    /// The events `diagram` stands for, each in its frame: an expected output, to compare with
    /// what ``record(_:frame:until:on:)`` recorded.
    public static func events<Value: Sendable, Failure: Error>(
        _ diagram: String,
        values: [Character: Value],
        error: Failure
    ) throws(MarbleDiagramError) -> [Recorded<Value, Failure>] {
        try read(diagram, values: values, error: Optional(error))
    }

    /// The events of a diagram of a signal that cannot fail.
    public static func events<Value: Sendable>(
        _ diagram: String,
        values: [Character: Value]
    ) throws(MarbleDiagramError) -> [Recorded<Value, Never>] {
        try read(diagram, values: values, error: Never?.none)
    }

    /// The events of a diagram whose letters are their own values, as text.
    public static func events<Failure: Error>(_ diagram: String, error: Failure) throws(MarbleDiagramError) -> [Recorded<String, Failure>] {
        try read(diagram, values: ownLetters(of: diagram), error: Optional(error))
    }

    /// Subscribes to `signal` and runs `scheduler` until no work is left or `until` (a thousand
    /// frames by default); what the signal sent, each event in the frame its time falls in. The
    /// subscription is disposed of afterwards.
    public static func record<Value: Sendable, Failure: Error>(
        _ signal: Signal<Value, Failure>,
        frame: Duration = .milliseconds(100),
        until: Duration? = nil,
        on scheduler: TestScheduler
    ) -> [Recorded<Value, Failure>] {
        let recorded = Lock<[Recorded<Value, Failure>]>([])
        let subscription = signal.subscribe(
            Subscriber { event in
                recorded.withLock { $0.append(Recorded(frame: Int(scheduler.now / frame), event: event)) }
            }
        )
        scheduler.advance(to: until ?? frame * 1_000)
        subscription.dispose()
        return recorded.withLock { $0 }
    }

    private static func read<Value: Sendable, Failure: Error>(
        _ diagram: String,
        values: [Character: Value],
        error: Failure?
    ) throws(MarbleDiagramError) -> [Recorded<Value, Failure>] {
        let entries: [Entry]
        do throws(ParseError) {
            entries = try parse(diagram)
        } catch {
            throw .notation(error)
        }
        return try entries.map { entry throws(MarbleDiagramError) in
            switch entry.symbol {
            case "|": return Recorded(frame: entry.frame, event: .completed)
            case "#":
                guard let error else { throw .errorThatCannotHappen }
                return Recorded(frame: entry.frame, event: .error(error))
            default:
                guard let value = values[entry.symbol] else { throw .noValue(entry.symbol) }
                return Recorded(frame: entry.frame, event: .next(value))
            }
        }
    }

    /// Each letter or digit of `diagram` as its own value.
    private static func ownLetters(of diagram: String) -> [Character: String] {
        Dictionary(diagram.filter { !"-()|# ".contains($0) }.map { ($0, String($0)) }) { first, _ in first }
    }
}
