import Foundation
import Locking
import Pipelines
import Reactive
import ReactiveTesting
import Scenarios

/// `POST /api/marbles`: a program whose sources are `marbles(…)`, run on a virtual clock without a
/// session, its named streams answered as marble diagrams (RxJS notation) and as exact events —
/// a marble diagram as a test anyone can run with curl (docs/API.md).
enum MarblesRun {
    /// The furthest a run goes, in virtual milliseconds (`?until=`, and the default).
    static let maximumUntil = 60_000.0
    /// The most scheduled work one run may do; past it the answer is truncated.
    static let stepBudget = 20_000
    /// The frame when the program has no `marbles(…)` source.
    static let defaultFrame = 100.0

    /// Runs `text` until every stream is quiet (no work left on the clock) or `until` virtual
    /// milliseconds; or every problem that keeps it from running.
    static func run(_ text: String, until: Double?) -> Result<Answer, ProgramRefusal> {
        let (program, diagnostics) = Pipeline.parse(text)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return .failure(ProgramRefusal(diagnostics: diagnostics)) }
        let clock = TestScheduler()
        let recorded = Lock<[(stream: String, event: Event<Pipelines.Value, PipelineFailure>, time: Duration)]>([])
        let named = Set(program.summaries.filter { $0.stageOf == nil }.map(\.name))
        let interpreter: Interpreter
        do throws(Interpreter.Diagnostics) {
            interpreter = try Interpreter(
                program: program,
                scheduler: clock,
                services: ProgramPipeline.services(Services(scheduler: clock, settings: ScenarioSettings()))
            ) { stream, event in
                guard named.contains(stream) else { return }
                recorded.withLock { $0.append((stream, event, clock.now)) }
            }
        } catch {
            return .failure(ProgramRefusal(diagnostics: error.all))
        }
        let limit = Duration.microseconds(Int64(((until ?? maximumUntil) * 1_000).rounded()))
        var steps = 0
        var truncated = false
        var reached: Duration?
        // Due work runs in time order; the run ends when none is left, at the limit, or at the budget.
        while let due = clock.nextDueTime {
            if due > limit {
                reached = limit
                truncated = true
                break
            }
            if steps >= stepBudget {
                truncated = true
                break
            }
            _ = clock.step()
            steps += 1
        }
        interpreter.stop()
        let frames = interpreter.marbleSources.map { Double($0.frame / .microseconds(1)) / 1_000 }
        let frame = frames.min() ?? defaultFrame
        let events = recorded.withLock { $0 }
        let letters = Letters(sources: interpreter.marbleSources)
        let streams = program.summaries.filter { $0.stageOf == nil }.map { summary in
            var own = letters  // each stream draws its other values with letters of its own
            return Drawing(
                name: summary.name,
                events: events.filter { $0.stream == summary.name }.map { ($0.event, $0.time) },
                frame: frame,
                letters: &own
            )
        }
        let until = Double((reached ?? clock.now) / .microseconds(1)) / 1_000
        return .success(Answer(frame: frame, until: until, truncated: truncated, streams: streams))
    }

    /// The answer: the frame the diagrams are drawn at, how far the clock went, whether the run
    /// was cut short, and each named stream in program order (an object keyed by name, in order).
    struct Answer: Encodable {
        let frame: Double
        let until: Double
        let truncated: Bool
        let streams: [Drawing]

        enum CodingKeys: String, CodingKey { case frame, until, truncated, streams, order }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(frame, forKey: .frame)
            try container.encode(until, forKey: .until)
            try container.encode(truncated, forKey: .truncated)
            var byName = container.nestedContainer(keyedBy: Name.self, forKey: .streams)
            for stream in streams { try byName.encode(stream, forKey: Name(stream.name)) }
            try container.encode(streams.map(\.name), forKey: .order)
        }
    }

    /// One stream: its diagram, what each letter is, and its events at their exact times.
    struct Drawing: Encodable {
        let name: String
        let marbles: String
        let values: [String: JSONValue]
        let events: [DrawnEvent]

        enum CodingKeys: String, CodingKey { case marbles, values, events }

        init(
            name: String,
            events recorded: [(Event<Pipelines.Value, PipelineFailure>, Duration)],
            frame: Double,
            letters: inout Letters
        ) {
            self.name = name
            var entries: [Marbles.Entry] = []
            var values: [String: JSONValue] = [:]
            var events: [DrawnEvent] = []
            for (event, time) in recorded {
                let milliseconds = Double(time / .microseconds(1)) / 1_000
                let at = Int((milliseconds / frame).rounded(.down))
                switch event {
                case .next(let value):
                    let letter = letters.letter(for: value)
                    values[String(letter)] = value.json
                    entries.append(Marbles.Entry(frame: at, symbol: letter))
                    events.append(DrawnEvent(kind: "next", value: value.json, time: milliseconds))
                case .error(let failure):
                    entries.append(Marbles.Entry(frame: at, symbol: "#"))
                    events.append(
                        DrawnEvent(
                            kind: "error",
                            value: .object(["code": .string(failure.code), "message": .string(failure.message)]),
                            time: milliseconds
                        )
                    )
                case .completed:
                    entries.append(Marbles.Entry(frame: at, symbol: "|"))
                    events.append(DrawnEvent(kind: "completed", value: nil, time: milliseconds))
                }
            }
            marbles = Marbles.render(entries)
            self.values = values
            self.events = events
        }
    }

    /// One event: `next` (with its value), `error` (with `{code, message}`) or `completed`.
    struct DrawnEvent: Encodable {
        let kind: String
        let value: JSONValue?
        let time: Double
    }

    /// Letters for values: a value a source's letter sends keeps that letter in every stream;
    /// any other value takes the stream's next letter that no source uses (`?` once all are
    /// taken), so a large program does not run out of letters across its streams.
    struct Letters {
        private var byValue: [String: Character] = [:]
        private var free: [Character]

        init(sources: [MarbleSource]) {
            var used = Set<Character>()
            for source in sources {
                for (letter, value) in source.letters {
                    used.insert(letter)
                    if byValue[EventJSON.json(value.json)] == nil { byValue[EventJSON.json(value.json)] = letter }
                }
            }
            free = Marbles.valueSymbols.filter { !used.contains($0) }
        }

        mutating func letter(for value: Pipelines.Value) -> Character {
            if let known = byValue[EventJSON.json(value.json)] { return known }
            guard !free.isEmpty else { return "?" }
            let letter = free.removeFirst()
            byValue[EventJSON.json(value.json)] = letter
            return letter
        }
    }

    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
