/// How large a value is: the bytes of its compact JSON (``Value/jsonText``), counted without
/// writing it out.
///
/// Values share storage: an array of ten references to one 64 KiB string costs a few bytes to
/// make, but 640 KiB to write out, and ten such arrays in an array 6.4 MiB. So every value a
/// program makes is measured as written, and the walk stops as soon as it passes its limit: no
/// value costs more than about the limit to measure, however much it shares.
extension Value {
    /// The deepest a value may nest arrays and objects: each level is a stack frame wherever a
    /// value is measured, compared, encoded or released.
    public static let maximumDepth = 64

    /// The bytes of the value as compact JSON, or `nil` once they pass `limit` or the value nests
    /// deeper than ``maximumDepth``.
    public func encodedSize(limit: Int) -> Int? {
        var remaining = limit
        guard Self.measure(self, depth: 0, remaining: &remaining) else { return nil }
        return limit - remaining
    }

    private static func measure(_ value: Value, depth: Int, remaining: inout Int) -> Bool {
        switch value {
        case .null: remaining -= 4
        case .bool(let flag): remaining -= flag ? 4 : 5
        case .number(let number): remaining -= numberLength(number)
        case .string(let text): remaining -= quotedLength(text, limit: remaining)
        case .array(let values):
            guard depth < maximumDepth else { return false }
            remaining -= 2 + max(values.count - 1, 0)
            for element in values {
                guard remaining >= 0, measure(element, depth: depth + 1, remaining: &remaining) else { return false }
            }
        case .object(let fields):
            guard depth < maximumDepth else { return false }
            remaining -= 2 + max(fields.count - 1, 0)
            for (key, element) in fields {
                guard remaining >= 0 else { return false }
                remaining -= quotedLength(key, limit: remaining) + 1
                guard remaining >= 0, measure(element, depth: depth + 1, remaining: &remaining) else { return false }
            }
        }
        return remaining >= 0
    }

    /// The length of a number as ``format(_:)`` writes it.
    static func numberLength(_ number: Double) -> Int {
        guard number.rounded() == number, abs(number) < 9_007_199_254_740_992 else { return "\(number)".utf8.count }
        var whole = Int64(number).magnitude
        var length = number < 0 ? 2 : 1
        while whole >= 10 {
            whole /= 10
            length += 1
        }
        return length
    }

    /// The length of `text` in quotes, escaped as JSON: its UTF-8 bytes, whatever its characters
    /// (a run of combining marks is one `Character` but thousands of bytes); more than `limit`
    /// when it is longer than that, without reading it all.
    static func quotedLength(_ text: String, limit: Int) -> Int {
        let bytes = text.utf8.count + 2
        guard bytes <= limit else { return bytes }
        var length = bytes
        for byte in text.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): length += 1
            default: length += 5  // \u00XX
            }
        }
        return length
    }
}
