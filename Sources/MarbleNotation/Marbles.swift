/// Marble diagrams in the RxJS TestScheduler notation, as text: write expected events as a
/// diagram in a test, or read the diagram of a recorded stream.
///
/// - `-` is one frame of time;
/// - any other letter or digit is a value, at the current frame, and takes one frame;
/// - `|` is completion and `#` an error, each at the current frame, taking one frame;
/// - `(` ... `)` groups events of one frame: all of them happen at the frame of the `(`, and, as in
///   RxJS, time then advances by the group's length in characters, parentheses included;
/// - spaces are ignored;
/// - nothing may follow `|` or `#` (but the `)` of their group).
public enum Marbles {
    /// One event of a diagram: its frame and what happened.
    public struct Entry: Equatable, Sendable {
        /// The frame index (time divided by the frame length).
        public let frame: Int
        /// The symbol: a value's letter, `|` or `#`.
        public let symbol: Character

        /// Creates an entry.
        public init(frame: Int, symbol: Character) {
            self.frame = frame
            self.symbol = symbol
        }
    }

    /// Why a diagram could not be read. Offsets count characters from the diagram's start.
    public enum ParseError: Error, Equatable {
        /// A `(` inside a group (groups do not nest), or a `)` outside one, at this offset.
        case misplacedParenthesis(Int)
        /// A group that is never closed.
        case unclosedGroup
        /// Something other than a group's `)` after `|` or `#`, at this offset: nothing happens
        /// after the end.
        case afterTheEnd(Int)
        /// A character that is no value here (the `values` test of ``parse(_:values:)``), at this offset.
        case notNotation(Character, Int)

        /// What is wrong, for people: "a group `(` is not closed".
        public var message: String {
            switch self {
            case .misplacedParenthesis(let offset): "a `(` inside a group or a `)` outside one, at character \(offset + 1)"
            case .unclosedGroup: "a group `(` is not closed"
            case .afterTheEnd: "nothing may follow `|` or `#`"
            case .notNotation(let character, _): "`\(character)` is not marble notation: `-`, a letter or digit, `(`, `)`, `|` or `#`"
            }
        }
    }

    /// Reads a diagram into its events, in order: the one reader of the notation, for tests and
    /// for the pipeline language's `marbles(…)` alike. Every character but a space takes one frame,
    /// a group's events all happen in the frame of its `(`. A character that is not `-`, `(`, `)`,
    /// `|`, `#` or a space is a value when `values` says so (any, by default).
    public static func parse(_ diagram: String, values: (Character) -> Bool = { _ in true }) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        var frame = 0
        var groupFrame: Int?
        var hasEnded = false
        for (offset, character) in diagram.enumerated() where character != " " {
            if hasEnded, !(character == ")" && groupFrame != nil) { throw .afterTheEnd(offset) }
            switch character {
            case "-":
                break
            case "(":
                guard groupFrame == nil else { throw .misplacedParenthesis(offset) }
                groupFrame = frame
            case ")":
                guard groupFrame != nil else { throw .misplacedParenthesis(offset) }
                groupFrame = nil
            case "|", "#":
                entries.append(Entry(frame: groupFrame ?? frame, symbol: character))
                hasEnded = true
            default:
                guard values(character) else { throw .notNotation(character, offset) }
                entries.append(Entry(frame: groupFrame ?? frame, symbol: character))
            }
            frame += 1
        }
        guard groupFrame == nil else { throw .unclosedGroup }
        return entries
    }

    /// Writes events (frame and symbol, in order of time) as a diagram that ``parse(_:values:)``
    /// reads back to exactly these entries; events of one frame are grouped. A group takes as many
    /// frames as it has characters, so an event that falls inside a preceding group's span cannot
    /// be written at this frame: then, or when the entries are out of order, the answer is `nil`
    /// and a finer frame is needed (``frame(fitting:preferring:placement:maximumFrames:)``). Nothing
    /// follows `|` or `#` in a diagram, so entries after one have no diagram at any frame.
    public static func render(_ entries: [Entry]) -> String? {
        if let end = entries.firstIndex(where: { $0.symbol == "|" || $0.symbol == "#" }), end != entries.count - 1 { return nil }
        var diagram = ""
        var cursor = 0
        var index = 0
        while index < entries.count {
            let frame = entries[index].frame
            var symbols: [Character] = []
            while index < entries.count && entries[index].frame == frame {
                symbols.append(entries[index].symbol)
                index += 1
            }
            guard frame >= cursor else { return nil }
            diagram += String(repeating: "-", count: frame - cursor)
            cursor = frame
            if symbols.count == 1 {
                diagram.append(symbols[0])
                cursor += 1
            } else {
                diagram += "(" + String(symbols) + ")"
                cursor += symbols.count + 2
            }
        }
        return diagram
    }

    /// The letters used for values, in order: `a`-`z`, `A`-`Z`, `0`-`9`.
    public static let valueSymbols: [Character] = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
}
