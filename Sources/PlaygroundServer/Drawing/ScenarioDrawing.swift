import Foundation
import MarbleNotation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// `POST /api/scenarios/{id}/marbles`: a built-in scenario run on a virtual clock of its own — no
/// session — with its inputs given as marble diagrams, its named streams answered as
/// `POST /api/marbles` answers a program's (docs/API.md). The course's lessons about a scenario
/// (two-way binding, schedulers) are checked through it.
enum ScenarioDrawing {
    /// The body, read and checked: each input's diagram, resolved to the events it sends and when.
    struct Query {
        /// One event sent into an input, `time` virtual milliseconds after the run began.
        struct Scheduled {
            let input: String
            let time: Int
            let event: InputEvent
        }

        let events: [Scheduled]
        /// Each letter of the rows with the value it sends, as the drawings keep them.
        let letters: [(letter: Character, json: JSONValue)]
        let frame: Int

        /// Reads `body` for `scenario`: `{"inputs": {"fieldA": "-a-|"}, "values": {"a": "Grace"},
        /// "frame": 100}` (each field optional: `{}` runs the scenario with no input), each value checked against its input's
        /// kind as `POST /api/sessions/{sid}/inputs/{name}` checks it.
        static func read(_ body: [UInt8], for scenario: PipelineDescription) -> Result<Query, FindQueryError> {
            let json: JSONValue
            switch JSONValue.read(body) {
            case .success(let value): json = value
            case .failure(.tooDeep): return .failure(.unreadable(.tooDeep))
            case .failure(.invalid): return .failure(.unreadable(.invalidJSON))
            }
            guard case .object(let fields) = json else {
                return .failure(.invalid("The body is a JSON object: {\"inputs\": {\"NAME\": \"-a-b|\"}, \"values\": {…}}."))
            }
            if let unknown = fields.keys.sorted().first(where: { !["inputs", "values", "frame"].contains($0) }) {
                return .failure(.invalid("`\(unknown.prefix(40))` is not a field here; the fields are inputs, values and frame."))
            }
            do throws(FindQueryError) {
                let frame = try FindQuery.readFrame(fields["frame"])
                let values = try FindQuery.readValues(fields["values"])
                let names = scenario.inputs.map(\.name)
                guard case .object(let rows) = fields["inputs"] ?? .object([:]), rows.count <= names.count else {
                    throw .invalid("`inputs` is an object of diagrams by input name, at most one for each of: \(names.joined(separator: ", ")).")
                }
                var events: [Scheduled] = []
                var letters: [(letter: Character, json: JSONValue)] = []
                for name in rows.keys.sorted() {
                    guard names.contains(name) else {
                        throw .invalid("`\(name.prefix(40))` is not an input of \(scenario.id); its inputs are \(names.joined(separator: ", ")).")
                    }
                    guard case .string(let diagram) = rows[name]! else { throw .invalid("Input `\(name)` is a diagram, as text: \"-a-b|\".") }
                    for entry in try FindQuery.readDiagram(diagram, of: "input `\(name)`", frame: frame) {
                        let event: InputEvent
                        switch entry.symbol {
                        case "|": event = .completed
                        case "#": event = .error(ErrorInfo(code: "failure", message: "The row `\(name)` failed."))
                        default:
                            let digit = entry.symbol.wholeNumberValue.map { Value.number(Double($0)) }
                            let value = values[entry.symbol] ?? digit ?? .string(String(entry.symbol))
                            switch scenario.value(for: name, from: .json(value.json)) {
                            case .success(let input): event = .next(input)
                            case .failure(.invalidValue(let message)), .failure(.unknownInput(let message)):
                                throw .invalid("`\(entry.symbol)` in input `\(name)`: \(message)")
                            }
                            letters.append((entry.symbol, value.json))
                        }
                        // At most 200 characters of at most 10,000 ms (readDiagram): no overflow.
                        events.append(Scheduled(input: name, time: entry.frame * frame, event: event))
                    }
                }
                return .success(Query(events: events, letters: letters, frame: frame))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Runs `scenario` on a virtual clock with the inputs of `query` until no work is left or
    /// `until` virtual milliseconds, and draws every stream of its catalogue entry in order. Its
    /// timings are `settings`: the server's (`--throttle-ms`…) for the API, so that a session's
    /// rows run as the session did; the defaults for lessons, whose answers must not move.
    static func run(
        _ scenario: any Scenario.Type,
        _ query: Query,
        until: Double?,
        settings: ScenarioSettings = ScenarioSettings(),
        steps stepBudget: Int = ProgramDrawing.stepBudget,
        answerBytes: Int = ProgramDrawing.defaultAnswerBytes
    ) -> ProgramDrawing.Answer {
        let clock = TestScheduler()
        let recording = DrawingRecording(answerBytes: answerBytes)
        let description = scenario.description
        let named = Set(description.streams.map(\.name))
        let running = scenario.init(scheduler: clock, settings: settings) { stream, report in
            let owner = stream.firstIndex(of: "·").map { String(stream[..<$0]) }
            guard named.contains(stream) || owner.map(named.contains) == true else { return }
            recording.record(stream, report, at: clock.now, withEvents: owner == nil)  // a source: its subscriptions alone
        }
        for scheduled in query.events {
            _ = clock.schedule(after: .milliseconds(scheduled.time)) { running.apply(scheduled.event, to: scheduled.input) }
        }
        let (steps, truncation, reached) = ProgramDrawing.runClock(clock, until: until, steps: stepBudget, recording: recording) {
            running.settle()
        }
        running.stop()
        let frame = Double(query.frame)
        return ProgramDrawing.Answer(
            frame: frame,
            until: Double((reached ?? clock.now) / .microseconds(1)) / 1_000,
            truncation: truncation.map { ($0, $0.message(answerBytes: answerBytes, steps: stepBudget)) },
            streams: recording.drawings(of: description.streams.map(\.name), frame: frame, letters: ProgramDrawing.Letters(letters: query.letters)),
            steps: steps
        )
    }
}

extension API {
    /// 404 for an unknown scenario, 415 unless the body is JSON (or untyped, as curl's
    /// `--data-binary` may send it), 429 past the client's rate of marble runs (it shares
    /// `--marble-runs-per-second` with `POST /api/marbles`).
    func limitingScenarioMarbles(_ request: inout HTTPRequest) -> Lookup<FoundScenario> {
        let found = requireScenario(&request)
        guard case .proceed = found else { return found }
        if let type = InputBody.mediaType(of: request), !["application/json", "application/x-www-form-urlencoded"].contains(type) {
            return .refused(PlaygroundError(.unsupportedMediaType, "Send the inputs as application/json; not \(type)."))
        }
        return found.unless(Self.rateLimited(request, by: marbleRuns, "Too many marble runs from your address; slow down."))
    }

    /// A drawing's `until` query value: virtual milliseconds from 1 to ``ProgramDrawing/maximumUntil``,
    /// `nil` when it is not given; a failure when it is given but is not one.
    static func until(_ request: HTTPRequest) -> Result<Double?, OutsideNumbers.Invalid> {
        guard let text = request.query["until"] else { return .success(nil) }
        return OutsideNumbers.until(text).map { .success($0) } ?? .failure(OutsideNumbers.Invalid())
    }

    /// 400 for an `until` that ``until(_:)`` refused.
    static var untilInvalid: HTTPResponse {
        PlaygroundError(.invalidValue, "until takes virtual milliseconds from 1 to \(Int(ProgramDrawing.maximumUntil)).").response
    }

    /// `POST /api/scenarios/{id}/marbles?until=MS`: the scenario run on a virtual clock with the
    /// body's input rows, its streams drawn (``ScenarioDrawing``).
    func drawScenarioMarbles(_ request: HTTPRequest, _ scenario: any Scenario.Type) -> HTTPResponse {
        guard case .success(let until) = Self.until(request) else { return Self.untilInvalid }
        switch ScenarioDrawing.Query.read(request.body, for: scenario.description) {
        case .failure(let error):
            return error.response
        case .success(let query):
            let answer = ScenarioDrawing.run(scenario, query, until: until, settings: sessions.settings, answerBytes: marblesAnswerBytes)
            if let truncation = answer.truncation { metrics.marblesTruncated("scenario_" + truncation.reason.rawValue) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(answer.json.utf8)))
        }
    }
}
