import Locking
import MarbleNotation
import Reactive

/// A program run on a virtual clock of its own and recorded stream by stream, for a test to compare
/// with marble diagrams (`Marbles.events(_:values:error:)` of ReactiveTesting) and subscription
/// marbles: the test form of the playground's `POST /api/marbles`, and what its "Copy as a test"
/// writes.
///
/// ```swift
/// let run = try ProgramMarbles.run("""
///     a = marbles("-ab----cd-----|")
///     out = a.throttle(0.2s)
///     """)
/// #expect(run.events("out") == (try Marbles.events("----b-----d---|", values: ["b": "b", "d": "d"], error: ProgramMarbles.noFailure)))
/// #expect(run.subscriptions("a") == ["^-------------!"])
/// ```
public struct ProgramMarbles: Sendable {
    /// Why a program cannot be run: its diagnostics.
    public struct Refusal: Error, Sendable {
        /// Every problem found, as the checker words them.
        public let diagnostics: [Diagnostic]
    }

    /// The milliseconds one frame of the diagrams takes: the smallest of the program's
    /// `marbles(…)` sources, 100 without any.
    public let frame: Double
    private let recorded: [String: [Marbles.Recorded<Value, PipelineFailure>]]
    private let spans: [String: [String]]

    /// The failure a diagram's `#` stands for in an expectation of a stream that never fails: any
    /// value would do, since no event of the stream is compared with it.
    public static let noFailure = PipelineFailure(code: "none", message: "the stream does not fail")

    /// What the named stream (or source inside a stream, `out·marbles`) sent, each event in the
    /// frame its time falls in.
    public func events(_ name: String) -> [Marbles.Recorded<Value, PipelineFailure>] {
        recorded[name] ?? []
    }

    /// Each subscription to the named stream (or source inside a stream), in the order they began,
    /// as RxJS's subscription marbles: `^` in the frame it began, `!` in the frame it ended (none
    /// if it lasted to the end of the run).
    public func subscriptions(_ name: String) -> [String] {
        spans[name] ?? []
    }

    /// Runs `program` on `clock` until no scheduled work is left or `until` virtual milliseconds,
    /// with `services` made for the run's clock (none by default). Each input the program declares
    /// and `inputs` gives reads that signal (a cold `Marbles.Cold` of ReactiveTesting on the same
    /// clock, whose own `subscriptions` say how the program subscribed to it). Events are counted
    /// in frames of `frame`, by default the smallest of the program's `marbles(…)` sources, or 100 ms.
    public static func run(
        _ program: String,
        inputs: [String: Signal<Value, PipelineFailure>] = [:],
        frame: Duration? = nil,
        on clock: TestScheduler = TestScheduler(),
        until: Double = 60_000,
        services: @Sendable (any Scheduler) -> [String: Service] = { _ in [:] }
    ) throws(Refusal) -> ProgramMarbles {
        let (parsed, diagnostics) = PipelineLanguage.parse(program)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { throw Refusal(diagnostics: diagnostics) }
        let log = Lock<(events: [String: [(Duration, Event<Value, PipelineFailure>)]], spans: [String: [Int: (Duration, Duration?)]])>(
            ([:], [:])
        )
        let interpreter: Interpreter
        do throws(Interpreter.Diagnostics) {
            interpreter = try Interpreter(program: parsed, scheduler: clock, services: services(clock), inputs: inputs) { stream, report in
                let now = clock.now
                log.withLock { log in
                    switch report {
                    case .subscribed(let id): log.spans[stream, default: [:]][id] = (now, nil)
                    case .disposed(let id): log.spans[stream]?[id]?.1 = now
                    case .event(let event, _): log.events[stream, default: []].append((now, event))
                    }
                }
            }
        } catch {
            throw Refusal(diagnostics: error.all)
        }
        let limit = clock.now + Duration.microseconds(Int64((until * 1_000).rounded()))
        while let due = clock.nextDueTime, due <= limit {
            _ = clock.step()
        }
        interpreter.stop()
        let frame = frame ?? interpreter.marbleSources.map(\.frame).min() ?? .milliseconds(100)
        let number = { (time: Duration) in Int(time / frame) }
        let (events, spans) = log.withLock { ($0.events, $0.spans) }
        return ProgramMarbles(
            frame: Double(frame / .microseconds(1)) / 1_000,
            recorded: events.mapValues { $0.map { Marbles.Recorded(frame: number($0.0), event: $0.1) } },
            spans: spans.mapValues { byID in
                byID.sorted { $0.key < $1.key }.map { _, span in
                    Marbles.renderSubscription(Marbles.Subscription(subscribed: number(span.0), disposed: span.1.map(number)))
                }
            }
        )
    }
}
