import Foundation
import Locking
import MarbleNotation
import Pipelines
import Reactive
import Scenarios

/// `POST /api/marbles`: a program whose sources are `marbles(…)`, run on a virtual clock without a
/// session, its named streams answered as marble diagrams (RxJS notation) and as exact events —
/// a marble diagram as a test anyone can run with curl (docs/API.md).
enum ProgramDrawing {
    /// The furthest a run goes, in virtual milliseconds (`?until=`, and the default).
    static let maximumUntil = 60_000.0
    /// The most scheduled work one run may do; past it the answer is truncated.
    static let stepBudget = 20_000
    /// The frame when the program has no `marbles(…)` source.
    static let defaultFrame = 100.0
    /// The largest answer, in bytes of its events' values (`--marbles-answer-bytes`).
    static let defaultAnswerBytes = 4 * 1024 * 1024

    /// When one subscription to a named stream began and ended (`nil`: still live at the end).
    struct SubscriptionSpan {
        let subscribed: Duration
        var disposed: Duration?
    }

    /// Why an answer stops short.
    enum Truncation: String {
        case until, steps, size

        func message(answerBytes: Int, steps: Int) -> String {
            switch self {
            case .until: "The clock reached `until` with work still due."
            case .steps: "The run did \(steps) pieces of scheduled work, the most one run may do."
            case .size: "The streams sent more than \(answerBytes) bytes of values, the most one answer holds; what came before is drawn."
            }
        }
    }

    /// Runs `text` until every stream is quiet (no work left on the clock) or `until` virtual
    /// milliseconds, run by `rules`, with at most `answerBytes` of values in its answer; or every
    /// problem that keeps it from running. With `inside`, the run is inspected and the answer
    /// holds its RAC objects at `inside.at` with the changes after `inside.since` (``InsideGraph``):
    /// the objects as the run left them, before the answer's own stop disposes of them.
    static func run(
        _ text: String,
        until: Double?,
        rules: ProgramRules = ProgramRules(),
        steps stepBudget: Int = ProgramDrawing.stepBudget,
        answerBytes: Int = defaultAnswerBytes,
        inside: (at: Double, since: Double)? = nil
    ) -> Result<Answer, ProgramRefusal> {
        let reports = LimitReports(rules.onLimit)
        let limits = rules.limits
        let (program, diagnostics) = PipelineLanguage.parse(text, hints: rules.hints)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return .failure(ProgramRefusal(diagnostics: diagnostics)) }
        let clock = TestScheduler()
        let recording = DrawingRecording(answerBytes: answerBytes)
        let named = Set(program.summaries.filter { $0.stageOf == nil }.map(\.name))
        let log = inside.map { _ in InsideLog(now: Session.milliseconds(since: .zero, on: clock)) }
        // Built and run under the inspection, if asked for; stopped outside it (see above).
        let built = inspected(by: log) { () -> Result<(Interpreter, Ran), Interpreter.Diagnostics> in
            do throws(Interpreter.Diagnostics) {
                let interpreter = try Interpreter(
                    program: program,
                    scheduler: clock,
                    services: ProgramSession.services(Services(scheduler: clock, settings: ScenarioSettings())),
                    limits: limits
                ) { stream, report in
                    if case .event(.error(let failure), _) = report { reports.ended(with: failure.code) }
                    // A source inside a named stream (`out·marbles`, an inner signal of its flattening)
                    // is answered by its subscriptions alone: its values are the stream's.
                    let owner = stream.firstIndex(of: "·").map { String(stream[..<$0]) }
                    let isSource = owner.map(named.contains) ?? false
                    guard named.contains(stream) || isSource else { return }
                    recording.record(stream, ProgramSession.stageReport(report), at: clock.now, withEvents: !isSource)
                }
                return .success((interpreter, runClock(clock, until: until, steps: stepBudget, recording: recording) {}))
            } catch {
                return .failure(error)
            }
        }
        let interpreter: Interpreter
        let ran: Ran
        switch built {
        case .failure(let error): return .failure(ProgramRefusal(diagnostics: error.all))
        case .success(let success): (interpreter, ran) = success
        }
        let (steps, truncation, reached) = ran
        interpreter.stop()
        let frames = interpreter.marbleSources.map { Double($0.frame / .microseconds(1)) / 1_000 }
        let frame = frames.min() ?? defaultFrame
        let names = program.summaries.filter { $0.stageOf == nil }.map(\.name)
        let streams = recording.drawings(of: names, frame: frame, letters: Letters(sources: interpreter.marbleSources))
        return .success(
            Answer(
                frame: frame,
                until: Double((reached ?? clock.now) / .microseconds(1)) / 1_000,
                truncation: truncation.map { ($0, $0.message(answerBytes: answerBytes, steps: stepBudget)) },
                streams: streams,
                steps: steps,
                inside: log.flatMap { log in inside.map { InsideGraph(log, at: $0.at, since: $0.since) } }
            )
        )
    }

    /// `work`, under `log`'s inspection when there is one.
    private static func inspected<Value>(by log: InsideLog?, _ work: () -> Value) -> Value {
        guard let log else { return work() }
        return Inspection.run(reportingTo: log, work)
    }

    /// What ``runClock(_:until:steps:recording:settle:)`` answers.
    typealias Ran = (steps: Int, truncation: Truncation?, reached: Duration?)

    /// Runs `clock`'s due work in time order, calling `settle` after each piece, until none is
    /// left, the next is past `until` virtual milliseconds, `stepBudget` pieces have run, or the
    /// recording is full. The pieces run, why it stopped short (`nil`: nothing was left), and the
    /// time it stopped at when that was `until`.
    static func runClock(
        _ clock: TestScheduler,
        until: Double?,
        steps stepBudget: Int,
        recording: DrawingRecording,
        settle: () -> Void
    ) -> Ran {
        let limit = Duration.microseconds(Int64(((until ?? maximumUntil) * 1_000).rounded()))
        var steps = 0
        settle()
        while let due = clock.nextDueTime {
            if recording.isFull { return (steps, .size, nil) }
            if due > limit { return (steps, .until, limit) }
            if steps >= stepBudget { return (steps, .steps, nil) }
            _ = clock.step()
            settle()
            steps += 1
        }
        return (steps, recording.isFull ? .size : nil, nil)
    }

    /// The answer: the frame the diagrams are drawn at, how far the clock went, whether the run
    /// was cut short and why, and each named stream in program order (an object keyed by name,
    /// and their names in order). Written by hand: its values are JSON already.
    struct Answer {
        let frame: Double
        let until: Double
        let truncation: (reason: Truncation, message: String)?
        let streams: [Drawing]
        /// The pieces of scheduled work the run did.
        let steps: Int
        /// The run's RAC objects at the instant asked for (`?inside=MS`), if one was.
        var inside: InsideGraph? = nil

        var truncated: Bool { truncation != nil }

        /// The answer as JSON text.
        var json: String {
            var text = #"{"frame":\#(number(frame)),"until":\#(number(until)),"truncated":\#(truncated)"#
            if let truncation {
                text += #","truncation":{"reason":"\#(truncation.reason.rawValue)","message":"# + quoted(truncation.message) + "}"
            }
            text += #","streams":{"#
            text += streams.map { quoted($0.name) + ":" + $0.json }.joined(separator: ",")
            text += #"},"order":["# + streams.map { quoted($0.name) }.joined(separator: ",") + "]"
            if let inside, let graph = try? InsideGraph.encoder.encode(inside) { text += #","inside":"# + String(decoding: graph, as: UTF8.self) }
            return text + "}"
        }
    }

    /// One stream: its diagram, the frame it is written at, what each letter is, its events at
    /// their exact times, its subscriptions as RxJS's subscription marbles (`^--!`), one per
    /// subscription, and those of each source inside it (`out·marbles`: the inner signals of its
    /// flattening), by name. The diagram and the subscriptions read back, at `frame`, to exactly
    /// the events and spans they were written from: a stream whose events are too close for the
    /// answer's frame is written at a finer one, and `note` says so.
    struct Drawing {
        let name: String
        /// The diagram, or `nil` when no frame down to 1 ms can hold its events (`note` says why).
        let marbles: String?
        /// The milliseconds a character of `marbles` and `subscriptions` takes.
        let frame: Double
        /// Why `frame` is not the answer's, or why there is no diagram.
        let note: String?
        let subscriptions: [String]
        let sources: [(name: String, subscriptions: [String])]
        /// Each letter's value, as JSON.
        let values: [(letter: Character, json: String)]
        let events: [RecordedEvent]
        private let spans: [SubscriptionSpan]
        private let sourceSpans: [(name: String, subscriptions: [SubscriptionSpan])]

        /// The longest diagram written, in characters: a stream that needs more (events 1 ms
        /// apart over a long run) has none.
        static let maximumFrames = 20_000

        init(
            name: String,
            events recorded: [RecordedEvent],
            subscriptions spans: [SubscriptionSpan],
            sources: [(name: String, subscriptions: [SubscriptionSpan])] = [],
            frame preferred: Double,
            letters: inout Letters
        ) {
            self.name = name
            var timed: [Marbles.Timed] = []
            var values: [(Character, String)] = []
            for event in recorded {
                switch (event.kind, event.valueJSON) {
                case (.next, let json?):
                    let letter = letters.letter(for: json)
                    if !values.contains(where: { $0.0 == letter }) { values.append((letter, json)) }
                    timed.append(Marbles.Timed(time: event.t, symbol: letter))
                case (.error, _):
                    timed.append(Marbles.Timed(time: event.t, symbol: "#"))
                default:
                    timed.append(Marbles.Timed(time: event.t, symbol: "|"))
                }
            }
            // A row several streams read is subscribed once by each: when every subscription saw
            // the same events, the diagram is one of them; else none holds them all.
            let (written, copies) = Self.oneSubscription(recorded, timed)
            timed = written
            let milliseconds = { (time: Duration) in Double(time / .microseconds(1)) / 1_000 }
            let allSpans = spans + sources.flatMap(\.subscriptions)
            let spanTimes = allSpans.flatMap { [milliseconds($0.subscribed)] + ($0.disposed.map { [milliseconds($0)] } ?? []) }
            let fitting = Marbles.frame(fitting: [timed], alsoAt: spanTimes, preferring: preferred, maximumFrames: Self.maximumFrames)
            let frame = fitting ?? preferred
            self.frame = frame
            marbles = timed.contains { $0.symbol == "?" } ? nil : fitting.flatMap { Marbles.render(timed, frame: $0) }
            if timed.contains(where: { $0.symbol == "?" }) {
                note =
                    "`\(name)` has no diagram: the answer's streams send more different values than there are letters (\(Marbles.valueSymbols.count)); its events say them all."
            } else if let end = timed.firstIndex(where: { $0.symbol == "|" || $0.symbol == "#" }), end != timed.count - 1 {
                note =
                    "`\(name)` has no diagram: it was subscribed to more than once, and a diagram has nothing after its `|` or `#` (each subscription's lane shows its own)."
            } else if fitting == nil {
                note =
                    "`\(name)` has no diagram: no frame down to 1 ms holds its events (a group takes a frame per character) within \(Self.maximumFrames) characters."
            } else if copies > 1, frame != preferred {
                note = "`\(name)` was subscribed to \(copies) times, each seeing these events; written once, at \(number(frame)) ms a frame."
            } else if copies > 1 {
                note = "`\(name)` was subscribed to \(copies) times, each seeing these events: written once."
            } else if frame != preferred {
                let between = (timed.map(\.time) + spanTimes).contains { Marbles.frameIndex(of: $0, frame: preferred, placement: .exact) == nil }
                let why = between ? "some of its times fall between frames" : "some of its events fall inside the frames a group before them takes"
                note = "`\(name)` is written at \(number(frame)) ms a frame: at \(number(preferred)) ms, \(why)."
            } else {
                note = nil
            }
            self.spans = spans
            sourceSpans = sources
            self.values = values
            events = recorded
            (subscriptions, self.sources) = Self.diagrams(of: spans, sources, frame: frame)
        }

        /// `timed` (the events of `recorded`, in order) as one subscription's, and how many
        /// subscriptions saw exactly those: all of them when every subscription's events are the
        /// same, else `timed` itself, once.
        private static func oneSubscription(_ recorded: [RecordedEvent], _ timed: [Marbles.Timed]) -> ([Marbles.Timed], Int) {
            let ids = recorded.map(\.subscription)
            let distinct = Set(ids.compactMap { $0 })
            guard distinct.count > 1, !ids.contains(nil) else { return (timed, 1) }
            var bySubscription: [Int: [Marbles.Timed]] = [:]
            for (id, event) in zip(ids, timed) { bySubscription[id!, default: []].append(event) }
            let first = bySubscription[ids[0]!] ?? []
            guard bySubscription.values.allSatisfy({ $0 == first }) else { return (timed, 1) }
            return (first, distinct.count)
        }

        /// The subscriptions' diagrams at `frame` (each `^` and `!` in the frame its time falls
        /// in), its own and its sources': what a test run at another frame than the stream's records.
        func subscriptions(atFrame frame: Double) -> (own: [String], sources: [(name: String, subscriptions: [String])]) {
            Self.diagrams(of: spans, sourceSpans, frame: frame)
        }

        private static func diagrams(
            of spans: [SubscriptionSpan],
            _ sources: [(name: String, subscriptions: [SubscriptionSpan])],
            frame: Double
        ) -> (own: [String], sources: [(name: String, subscriptions: [String])]) {
            let frameOf = { (time: Duration) in Int((Double(time / .microseconds(1)) / 1_000 / frame).rounded(.down)) }
            let render = { (span: SubscriptionSpan) in
                Marbles.renderSubscription(Marbles.Subscription(subscribed: frameOf(span.subscribed), disposed: span.disposed.map(frameOf)))
            }
            return (spans.map(render), sources.map { (name: $0.name, subscriptions: $0.subscriptions.map(render)) })
        }

        /// `{"events":[{"kind","time","value","thread"}…],"marbles","frame","note"?,"values":{letter: value},
        /// "subscriptions":[…],"sources":{name: […]}}`.
        var json: String {
            let events = self.events.map { event in
                let time = number(event.t)
                let value = event.valueJSON.map { #","value":"# + $0 } ?? ""
                return #"{"kind":"\#(event.kind.rawValue)","time":\#(time)\#(value),"thread":"# + quoted(event.thread) + "}"
            }
            let values = self.values.map { quoted(String($0.letter)) + ":" + $0.json }
            let note = self.note.map { #","note":"# + quoted($0) } ?? ""
            return #"{"events":["# + events.joined(separator: ",") + #"],"marbles":"# + (marbles.map(quoted) ?? "null")
                + #","frame":\#(number(frame))\#(note),"values":{"#
                + values.joined(separator: ",") + #"},"subscriptions":["# + subscriptions.map(quoted).joined(separator: ",") + #"],"sources":{"#
                + sources.map { quoted($0.name) + ":[" + $0.subscriptions.map(quoted).joined(separator: ",") + "]" }.joined(separator: ",") + "}}"
        }
    }

    /// Letters for values: a value a source's letter sends keeps that letter in every stream; a
    /// value one character says as the notation reads it back — a whole number from 0 to 9 as its
    /// digit, a one-letter string as its letter — is that character when no source gives the
    /// character another value; any other value takes the next letter no source or value uses
    /// (`?` once all are taken: that stream then has no diagram, only its events). One `Letters`
    /// letters every stream of an answer, so a value has one letter across its rows.
    struct Letters {
        private var byValue: [String: Character] = [:]
        private var used = Set<Character>()

        init(sources: [MarbleSource]) {
            self.init(letters: sources.flatMap { $0.letters.map { (letter: $0.0, json: $0.1.json) } })
        }

        /// Letters for the values `letters` gives them (the first letter of a value wins).
        init(letters: [(letter: Character, json: JSONValue)]) {
            for (letter, value) in letters {
                used.insert(letter)
                if byValue[EventJSON.json(value)] == nil { byValue[EventJSON.json(value)] = letter }
            }
        }

        /// The letter of the value whose JSON is `json`.
        mutating func letter(for json: String) -> Character {
            if let known = byValue[json] { return known }
            let letter =
                Self.itself(json).flatMap { used.contains($0) ? nil : $0 } ?? Marbles.valueSymbols.first { !used.contains($0) && !$0.isNumber }
            guard let letter else { return "?" }
            used.insert(letter)
            byValue[json] = letter
            return letter
        }

        /// The one character that reads back as the value whose JSON is `json`: `6` for 6, `x`
        /// for "x"; `nil` for any other value.
        static func itself(_ json: String) -> Character? {
            if json.utf8.count == 1, let digit = json.first, digit.isASCII, digit.isNumber { return digit }
            if json.utf8.count == 3, json.hasPrefix("\""), json.hasSuffix("\""), let letter = json.dropFirst().first, letter.isASCII, letter.isLetter
            {
                return letter
            }
            return nil
        }
    }
}

/// A number as JSON (and as a Swift literal, for "Copy as a test"): whole numbers without a fraction.
func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 9_007_199_254_740_992 ? String(Int64(value)) : "\(value)"
}

/// A string as JSON.
private func quoted(_ text: String) -> String {
    EventJSON.json(.string(text))
}
