import Foundation
import Pipelines
import Scenarios

/// A session's inputs as marble rows (docs/API.md, "Recordings"): what its learner typed, pressed
/// and chose, with when, quantized to a frame — the finest of ``frames`` that keeps every input
/// event in a frame of its own (so their order survives), at least 10 ms — as
/// `POST /api/scenarios/{id}/marbles` and `POST /api/marbles` read rows. Runs of those rows are
/// deterministic: the virtual clock replays them exactly, so "what if I had typed slower?" is one
/// row moved. Rows keep within the scenario runs' bounds (``FindQuery``): the events past them are
/// counted in `left`, never silently dropped.
struct RecordingRows {
    /// The frames tried, finest first: round numbers, so that the rows read as times.
    static let frames = [10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000]
    /// The letters values take, in turn (digits are numbers in a row, so they are not used).
    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// One input event kept: its input, its time, its row's symbol.
    private struct Entry {
        let input: String
        let t: Double
        let symbol: Character
    }

    let frame: Int
    /// Each input's row, by name (every input of the session, those that sent nothing too).
    let inputs: [(name: String, row: String)]
    /// Each letter's value, as JSON text.
    let values: [(letter: Character, json: String)]
    /// Virtual milliseconds the run of the rows should last: the recording's.
    let until: Int
    /// Input events recorded but not in the rows (past a bound), and why.
    let left: Int
    let leftReason: String?
    /// The session's program (or the scenario's, as the language states it) with each input
    /// declaration replaced by its row: a program `POST /api/marbles` and the editor run.
    let program: String?

    /// The rows of `events` (a session's kept events, in order) for a session of `inputs`, whose
    /// program text, if it has one, is `program`; `now` is the session's time (a virtual clock's
    /// reading), when it is later than its last event.
    init(events: [RecordedEvent], inputs: [InputDescription], program: String?, now: Double? = nil) {
        let names = Set(inputs.map(\.name))
        var kept: [(input: String, t: Double, kind: EventKind, json: String)] = []
        var perInput: [String: Int] = [:]
        var letterOf: [String: Character] = [:]
        var valueBytes = 0
        var left = 0
        var reason: String?
        for event in events where event.stream.hasPrefix("input:") && !event.kind.isSubscriptionMark {
            let name = String(event.stream.dropFirst("input:".count))
            guard names.contains(name) else { continue }
            if reason == nil {
                let isAction = inputs.first { $0.name == name }?.kind == .action
                let json = event.kind == .next ? (isAction ? "true" : event.valueJSON ?? "null") : ""
                let isNew = event.kind == .next && letterOf[json] == nil
                if event.t > Double(FindQuery.maximumSpan) {
                    reason = "The rows hold the first \(FindQuery.maximumSpan / 1_000) s."
                } else if perInput[name, default: 0] >= FindQuery.maximumEventsPerRow {
                    reason = "A row holds at most \(FindQuery.maximumEventsPerRow) events."
                } else if isNew && letterOf.count == Self.letters.count {
                    reason = "The rows hold at most \(Self.letters.count) different values."
                } else if isNew && (json.utf8.count > FindQuery.maximumValueBytes || valueBytes + json.utf8.count > FindQuery.maximumValuesBytes) {
                    reason = "The rows' values take at most \(FindQuery.maximumValuesBytes) bytes of JSON."
                } else if isNew && Self.literal(json) == nil {
                    reason = "A value the program's language cannot write (a control character, a number with an exponent) ends the rows."
                } else {
                    if isNew {
                        letterOf[json] = Self.letters[letterOf.count]
                        valueBytes += json.utf8.count
                    }
                    perInput[name, default: 0] += 1
                    kept.append((name, event.t, event.kind, json))
                    continue
                }
            }
            left += 1
        }
        let entries = kept.map { event -> Entry in
            let symbol: Character = event.kind == .completed ? "|" : event.kind == .error ? "#" : letterOf[event.json]!
            return Entry(input: event.input, t: event.t, symbol: symbol)
        }
        let (frame, rows) = Self.rows(of: entries, inputs: inputs.map(\.name))
        self.frame = frame
        self.inputs = rows
        let used = Set(rows.flatMap(\.row))
        let values = letterOf.filter { used.contains($0.value) }.map { (letter: $0.value, json: $0.key) }.sorted { $0.letter < $1.letter }
        self.values = values
        let last = min(max(events.last?.t ?? 0, now ?? 0), Double(ProgramDrawing.maximumUntil))
        self.until = min(Int(ProgramDrawing.maximumUntil), max(frame, Int((last / Double(frame)).rounded(.up)) * frame))
        self.left = left
        self.leftReason = reason
        self.program = program.map { Self.program($0, rows: rows, values: values, frame: frame) }
    }

    /// The finest frame whose rows give each event a frame of its own and fit a row's length;
    /// else the finest whose rows fit (events of one frame grouped, as RxJS writes them).
    private static func rows(of entries: [Entry], inputs: [String]) -> (Int, [(name: String, row: String)]) {
        for strict in [true, false] {
            for frame in frames {
                let indices = entries.map { Int(($0.t / Double(frame)).rounded()) }
                if strict && zip(indices, indices.dropFirst()).contains(where: { $0 >= $1 }) { continue }
                let rows = inputs.map { name in
                    (name, row(entries.indices.filter { entries[$0].input == name }.map { (indices[$0], entries[$0].symbol) }))
                }
                if rows.allSatisfy({ $0.1 != nil && $0.1!.count <= FindQuery.maximumDiagramLength }) {
                    return (frame, rows.map { ($0.0, $0.1!) })
                }
            }
        }
        // Unreachable within the bounds above (60 s at 10 s frames is 6 characters a row).
        return (frames.last!, inputs.map { ($0, "") })
    }

    /// One row's text from its events' frames, or `nil` when a group would push an event past its
    /// frame (the notation cannot say it at this frame).
    private static func row(_ events: [(frame: Int, symbol: Character)]) -> String? {
        var text = ""
        var index = 0
        while index < events.count {
            let frame = events[index].frame
            var symbols = [events[index].symbol]
            index += 1
            while index < events.count && events[index].frame == frame {
                symbols.append(events[index].symbol)
                index += 1
            }
            guard frame >= text.count else { return nil }
            text += String(repeating: "-", count: frame - text.count)
            text += symbols.count == 1 ? String(symbols) : "(" + String(symbols) + ")"
        }
        return text
    }

    /// A value's JSON as the program language writes it (``Value/literal``), or `nil` when it cannot.
    static func literal(_ json: String) -> String? {
        guard case .success(let value) = JSONValue.read(Array(json.utf8)) else { return nil }
        return Value(value).literal
    }

    /// `program` with each `input NAME: KIND` line replaced by `NAME = marbles(ROW, …, frame: F)`.
    private static func program(
        _ program: String,
        rows: [(name: String, row: String)],
        values: [(letter: Character, json: String)],
        frame: Int
    ) -> String {
        let rowOf = Dictionary(rows.map { ($0.name, $0.row) }, uniquingKeysWith: { first, _ in first })
        return program.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let words = line.trimmingCharacters(in: .whitespaces)
            guard words.hasPrefix("input "), let colon = words.firstIndex(of: ":") else { return String(line) }
            let name = words.dropFirst("input ".count)[..<colon].trimmingCharacters(in: .whitespaces)
            guard let row = rowOf[name] else { return String(line) }
            let named = values.filter { row.contains($0.letter) }.compactMap { value in literal(value.json).map { "\(value.letter): \($0)" } }
            let arguments = ["\"\(row.isEmpty ? "-" : row)\""] + named + ["frame: \(frame)ms"]
            return "\(name) = marbles(\(arguments.joined(separator: ", ")))"
        }.joined(separator: "\n")
    }

    /// The rows as the recording's `rows` field.
    var json: String {
        var fields = ["\"frame\":\(frame)"]
        fields.append(
            "\"inputs\":{" + inputs.map { EventJSON.json(.string($0.name)) + ":" + EventJSON.json(.string($0.row)) }.joined(separator: ",") + "}"
        )
        fields.append("\"values\":{" + values.map { EventJSON.json(.string(String($0.letter))) + ":" + $0.json }.joined(separator: ",") + "}")
        fields.append("\"until\":\(until)")
        fields.append("\"left\":\(left)")
        if let leftReason { fields.append("\"leftReason\":" + EventJSON.json(.string(leftReason))) }
        if let program { fields.append("\"program\":" + EventJSON.json(.string(program))) }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
