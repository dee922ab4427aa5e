/// Marble diagrams in the RxJS TestScheduler notation, as text: write expected events as a
/// diagram in a test, or read the diagram of a recorded stream.
///
/// - `-` is one frame of time;
/// - any other letter or digit is a value, at the current frame, and takes one frame;
/// - `|` is completion and `#` an error, each at the current frame, taking one frame;
/// - `(` ... `)` groups events of one frame: all of them happen at the frame of the `(`, and, as in
///   RxJS, time then advances by the group's length in characters, parentheses included;
/// - spaces are ignored.
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

    /// Why a diagram could not be read.
    public enum ParseError: Error, Equatable {
        /// A `(` inside a group, or a `)` outside one, at this character offset.
        case misplacedParenthesis(Int)
        /// A group that is never closed.
        case unclosedGroup
    }

    /// Reads a diagram into its events, in order.
    public static func parse(_ diagram: String) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        var frame = 0
        var groupStart: (offset: Int, frame: Int)?
        for (offset, character) in diagram.enumerated() {
            switch character {
            case " ":
                continue
            case "(":
                guard groupStart == nil else { throw .misplacedParenthesis(offset) }
                groupStart = (offset, frame)
            case ")":
                guard let start = groupStart else { throw .misplacedParenthesis(offset) }
                frame = start.frame + (offset - start.offset + 1)
                groupStart = nil
            case "-":
                if groupStart == nil { frame += 1 }
            default:
                entries.append(Entry(frame: groupStart?.frame ?? frame, symbol: character))
                if groupStart == nil { frame += 1 }
            }
        }
        guard groupStart == nil else { throw .unclosedGroup }
        return entries
    }

    /// Writes events (frame and symbol, in order of time) as a diagram; events of one frame are
    /// grouped. A group takes as many frames as it has characters, so an event that falls inside
    /// a preceding group's span is written right after it, up to that many frames late.
    public static func render(_ entries: [Entry]) -> String {
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
            if frame > cursor {
                diagram += String(repeating: "-", count: frame - cursor)
                cursor = frame
            }
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
