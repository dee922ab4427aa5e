import Locking
import Reactive

/// The `#` of an input diagram given to ``MarbleNotation/Marbles/output(of:frame:until:_:)``.
public struct MarbleFailure: Error, Equatable, Sendable {
    /// Creates the failure.
    public init() {}
}

extension Marbles {
    /// What `operation` sends, as a diagram, when its inputs send the given diagrams: an operator
    /// stated as marbles, `"-ab----cd-----|" → "----b-----d---|"`, as the playground's
    /// `POST /api/marbles` draws it for a program.
    ///
    /// Each input is a cold signal on a `TestScheduler` (RAC's signals are cold: its frames count
    /// from its subscription), sending each letter or digit as a one-character string, `|` as
    /// completion and `#` as a ``MarbleFailure``. The virtual clock runs until no work is left or
    /// `until` (a thousand frames by default). The output's values are drawn as their one
    /// character (`?` for a longer value), each event in the frame its time falls in. Events too
    /// close for `frame` (one inside a group's span) are answered as a sentence saying so, which no
    /// diagram equals: choose a finer frame.
    ///
    /// ```swift
    /// let drawn = Marbles.output(of: "-ab----cd-----|") { inputs, scheduler in
    ///     inputs[0].throttle(.milliseconds(200), on: scheduler)
    /// }
    /// // drawn == "----b-----d---|"
    /// ```
    public static func output(
        of inputs: String...,
        frame: Duration = .milliseconds(100),
        until: Duration? = nil,
        _ operation: (_ inputs: [Signal<String, MarbleFailure>], _ scheduler: TestScheduler) -> Signal<String, MarbleFailure>
    ) -> String {
        run(of: inputs, frame: frame, until: until, operation).output
    }

    /// What a run of ``output(of:frame:until:_:)`` saw: the output's diagram, and how the
    /// operation subscribed to each input, one subscription diagram per subscription (RxJS's
    /// `expectSubscriptions`): `take(2)` of `"-a-b-c-|"` subscribes `"^--!"`.
    public struct Recording: Equatable, Sendable {
        /// The output, as ``output(of:frame:until:_:)`` draws it.
        public let output: String
        /// For each input, in order, its subscriptions' diagrams in the order they began.
        public let subscriptions: [[String]]
    }

    /// Runs `operation` as ``output(of:frame:until:_:)`` does, recording the subscriptions to
    /// each input too.
    public static func run(
        of inputs: [String],
        frame: Duration = .milliseconds(100),
        until: Duration? = nil,
        _ operation: (_ inputs: [Signal<String, MarbleFailure>], _ scheduler: TestScheduler) -> Signal<String, MarbleFailure>
    ) -> Recording {
        let scheduler = TestScheduler()
        let frameNumber = { @Sendable in Int(scheduler.now / frame) }
        // Per input, each subscription's first frame and last (nil while live).
        let spans = Lock<[[(Int, Int?)]]>(Array(repeating: [], count: inputs.count))
        let signals = inputs.enumerated().map { index, diagram in
            let plain = signal(diagram, frame: frame, on: scheduler)
            return Signal<String, MarbleFailure> { subscriber in
                let number = spans.withLock { spans in
                    spans[index].append((frameNumber(), nil))
                    return spans[index].count - 1
                }
                subscriber.add(ActionDisposable { spans.withLock { $0[index][number].1 = frameNumber() } })
                return plain.subscribe(subscriber)
            }
        }
        let recorded = Lock<[Entry]>([])
        let subscription = operation(signals, scheduler).subscribe(
            next: { value in
                let symbol: Character = value.count == 1 ? value.first! : "?"
                recorded.withLock { $0.append(Entry(frame: frameNumber(), symbol: symbol)) }
            },
            error: { _ in recorded.withLock { $0.append(Entry(frame: frameNumber(), symbol: "#")) } },
            completed: { recorded.withLock { $0.append(Entry(frame: frameNumber(), symbol: "|")) } }
        )
        scheduler.advance(to: until ?? frame * 1_000)
        let entries = recorded.withLock { $0 }
        // Never a diagram that reads back otherwise: events too close for this frame fail the
        // comparison with one that says so.
        let drawn = render(entries) ?? "cannot be written at this frame: \(entries.map { "\($0.symbol)@\($0.frame)" })"
        let diagrams = spans.withLock { spans in
            spans.map { input in input.map { renderSubscription(Subscription(subscribed: $0.0, disposed: $0.1)) } }
        }
        subscription.dispose()
        return Recording(output: drawn, subscriptions: diagrams)
    }

    /// A cold signal sending `diagram` on `scheduler`; a diagram that cannot be read is a
    /// programming error in the test that wrote it.
    private static func signal(_ diagram: String, frame: Duration, on scheduler: TestScheduler) -> Signal<String, MarbleFailure> {
        let entries: [Entry]
        do {
            entries = try parse(diagram)
        } catch {
            preconditionFailure("not a marble diagram: \(diagram) (\(error))")
        }
        return Signal { subscriber in
            let timers = CompoundDisposable()
            for entry in entries {
                timers.add(
                    scheduler.schedule(after: frame * entry.frame) {
                        switch entry.symbol {
                        case "|": subscriber.sendCompleted()
                        case "#": subscriber.sendError(MarbleFailure())
                        default: subscriber.sendNext(String(entry.symbol))
                        }
                    }
                )
            }
            return timers
        }
    }
}
