import Foundation
import MarbleNotation
import MicroHTTP
import Pipelines
import Scenarios

/// The body of `POST /api/marbles/find`, read and checked: one or two input rows and the output
/// wanted, as marble diagrams in the notation `marbles(…)` reads, the values of their letters and
/// the frame (docs/API.md, "Find by behaviour"). Everything is bounded here, before any program
/// runs: the number of rows, of characters and events per row, the bytes of each value, and the
/// time a diagram spans.
struct FindQuery {
    /// One input row.
    struct Input {
        /// Its name in the programs (`a`).
        let name: String
        /// Its diagram, as posted.
        let diagram: String
        /// The values it sends, in order.
        let values: [Value]
        /// Whether it ends with an error (`#`), and whether it ends at all.
        let fails: Bool
        let ends: Bool
        /// The frames of its events, values and end alike.
        let frames: [Int]
    }

    /// One event of a row, as the comparison reads it: its frame, its kind and, for a value, the
    /// value's JSON (an error's value is not compared: `#` says only that it failed).
    struct Event: Equatable {
        let frame: Int
        /// `next`, `error` or `completed`.
        let kind: EventKind
        let valueJSON: String?
    }

    let inputs: [Input]
    /// The output wanted, and its diagram as posted.
    let output: [Event]
    let outputDiagram: String
    /// The values of the output's letters, in the order they first appear.
    let outputValues: [Value]
    /// The milliseconds one character of a diagram takes.
    let frame: Int
    /// The program lines that define the inputs, one `NAME = marbles(…)` each.
    let inputLines: String

    static let maximumInputs = 2
    static let maximumDiagramLength = 200
    static let maximumEventsPerRow = 30
    static let frames = 10...10_000
    static let defaultFrame = 100
    /// The longest time a diagram may span, in milliseconds: a run's clock stops at 60 s.
    static let maximumSpan = 60_000
    static let maximumValueBytes = 1_024
    /// Every candidate's program writes the values out again: their bytes in all are bounded too.
    static let maximumValuesBytes = 4 * 1_024
    static let maximumValues = 52

    /// Reads `body`, or says what is wrong with it.
    static func read(_ body: [UInt8]) -> Result<FindQuery, FindQueryError> {
        let json: JSONValue
        switch JSONValue.read(body) {
        case .success(let value): json = value
        case .failure(.tooDeep): return .failure(.unreadable(.tooDeep))
        case .failure(.invalid): return .failure(.unreadable(.invalidJSON))
        }
        guard case .object(let fields) = json else { return .failure(.invalid("The body is a JSON object: {\"inputs\": {…}, \"output\": \"…\"}.")) }
        if let unknown = fields.keys.sorted().first(where: { !["inputs", "output", "values", "frame"].contains($0) }) {
            return .failure(.invalid("`\(unknown)` is not a field of a find; the fields are inputs, output, values and frame."))
        }
        do throws(FindQueryError) {
            let frame = try readFrame(fields["frame"])
            let values = try readValues(fields["values"])
            guard case .object(let rows)? = fields["inputs"], (1...maximumInputs).contains(rows.count) else {
                throw .invalid("`inputs` is an object of one or two rows by name: {\"a\": \"-1-2-3|\"}.")
            }
            guard case .string(let outputDiagram)? = fields["output"] else {
                throw .invalid("`output` is the diagram wanted, as text: \"--2-|\".")
            }
            let value = { (letter: Character) in
                values[letter] ?? letter.wholeNumberValue.map { .number(Double($0)) } ?? .string(String(letter))
            }
            var inputs: [Input] = []
            var lines: [String] = []
            for name in rows.keys.sorted() {
                guard isName(name) else {
                    throw .invalid("`\(name)` cannot name an input: a lower-case letter, then letters or digits, at most 16, and not `out`.")
                }
                guard case .string(let diagram) = rows[name]! else { throw .invalid("Input `\(name)` is a diagram, as text: \"-1-2-3|\".") }
                let entries = try readDiagram(diagram, of: "input `\(name)`", frame: frame)
                let letters = entries.map(\.symbol).filter { $0 != "|" && $0 != "#" }
                inputs.append(
                    Input(
                        name: name,
                        diagram: diagram,
                        values: letters.map(value),
                        fails: entries.last?.symbol == "#",
                        ends: ["|", "#"].contains(entries.last?.symbol),
                        frames: entries.map(\.frame)
                    )
                )
                let given = Set(letters).sorted().compactMap { letter in
                    values[letter].flatMap(\.literal).map { ", \(letter): \($0)" }
                }
                lines.append("\(name) = marbles(\(Value.string(diagram).literal!)\(given.joined()), frame: \(frame)ms)")
            }
            let entries = try readDiagram(outputDiagram, of: "the output", frame: frame)
            let output = entries.map { entry in
                switch entry.symbol {
                case "|": Event(frame: entry.frame, kind: .completed, valueJSON: nil)
                case "#": Event(frame: entry.frame, kind: .error, valueJSON: nil)
                default: Event(frame: entry.frame, kind: .next, valueJSON: EventJSON.json(value(entry.symbol).json))
                }
            }
            var outputValues: [Value] = []
            for letter in entries.map(\.symbol) where letter != "|" && letter != "#" {
                let next = value(letter)
                if !outputValues.contains(next) { outputValues.append(next) }
            }
            return .success(
                FindQuery(
                    inputs: inputs,
                    output: output,
                    outputDiagram: outputDiagram,
                    outputValues: outputValues,
                    frame: frame,
                    inputLines: lines.joined(separator: "\n")
                )
            )
        } catch {
            return .failure(error)
        }
    }

    /// A name a program can bind: an identifier, short, not the output's.
    private static func isName(_ name: String) -> Bool {
        guard (1...16).contains(name.utf8.count), name != "out", let first = name.utf8.first, (97...122).contains(first) else { return false }
        return name.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    static func readFrame(_ json: JSONValue?) throws(FindQueryError) -> Int {
        switch json {
        case nil: return defaultFrame
        case .int(let frame)? where frames.contains(frame): return frame
        default: throw .invalid("`frame` is the milliseconds of one character, a whole number from \(frames.lowerBound) to \(frames.upperBound).")
        }
    }

    static func readValues(_ json: JSONValue?) throws(FindQueryError) -> [Character: Value] {
        guard let json else { return [:] }
        guard case .object(let fields) = json, fields.count <= maximumValues else {
            throw .invalid("`values` is an object from letters to values, at most \(maximumValues): {\"a\": 1}.")
        }
        var values: [Character: Value] = [:]
        var bytes = 0
        for (key, given) in fields {
            guard key.count == 1, let letter = key.first, letter.isASCII, letter.isLetter else {
                throw .invalid("`\(key.prefix(20))` in `values` is not a letter: each key is one letter of the diagrams, a to z or A to Z.")
            }
            let size = EventJSON.json(given).utf8.count
            guard size <= maximumValueBytes else {
                throw .invalid("The value of `\(key)` takes more than \(maximumValueBytes) bytes of JSON.")
            }
            bytes += size
            guard bytes <= maximumValuesBytes else {
                throw .invalid("The values take more than \(maximumValuesBytes) bytes of JSON in all.")
            }
            let value = Value(given)
            guard value.literal != nil else {
                throw .invalid(
                    "The value of `\(key)` cannot be written in a program: no control characters but newlines and tabs in text, no numbers beyond 2^53."
                )
            }
            values[letter] = value
        }
        return values
    }

    static func readDiagram(_ diagram: String, of what: String, frame: Int) throws(FindQueryError) -> [Marbles.Entry] {
        guard diagram.count <= maximumDiagramLength else {
            throw .invalid("The diagram of \(what) has more than \(maximumDiagramLength) characters.")
        }
        let entries: [Marbles.Entry]
        do throws(Marbles.ParseError) {
            entries = try Marbles.parse(diagram) { $0.isASCII && ($0.isLetter || $0.isNumber) }
        } catch {
            throw .invalid("The diagram of \(what) is not marble notation (`-`, a letter or digit, `(…)`, `|`, `#`): \(error.message).")
        }
        guard entries.count <= maximumEventsPerRow else {
            throw .invalid("The diagram of \(what) has more than \(maximumEventsPerRow) events.")
        }
        // At most 200 characters of at most 10,000 ms: no overflow.
        guard diagram.count * frame <= maximumSpan else {
            throw .invalid("The diagram of \(what) spans more than \(maximumSpan / 1_000) s at \(frame) ms a character.")
        }
        return entries
    }
}

/// Why a find's body cannot be read: 400 `invalid_json` (as an input's body), or `invalid_value`.
enum FindQueryError: Error {
    case unreadable(InputBodyError)
    case invalid(String)

    var response: HTTPResponse {
        switch self {
        case .unreadable(let error): error.response
        case .invalid(let message): PlaygroundError(.invalidValue, message).response
        }
    }
}
