import Foundation
import Scenarios

/// Every number the playground reads from outside — headers, query values, input bodies — parsed
/// in one place, range-checked before any arithmetic, so that no request can make Swift trap on
/// overflow (a trap on a request path ends every session). Each parser answers `nil` for anything
/// it does not accept; the caller turns that into a 400 or, for `Last-Event-ID`, into a reset.
/// A fuzz test feeds each of them thousands of generated values.
enum OutsideNumbers {
    /// The largest event number a `Last-Event-ID` may name: far beyond what a session records, and
    /// far enough below `Int.max` that `id + 1` can never overflow.
    static let maximumEventID = 1 << 53

    /// A `Last-Event-ID` value: decimal digits only (surrounding spaces allowed), 0 through
    /// ``maximumEventID``. Anything else — a sign, a fraction, `0x…`, a huge number — is `nil`.
    static func eventID(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.utf8.count <= 16, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = Int(digits), value <= maximumEventID
        else { return nil }
        return value
    }

    /// Where a watcher resumes: after an event, and with `E.N` after the session's RAC object
    /// change `N` too (``InsideFeed``).
    struct ResumePoint: Sendable, Equatable {
        let event: Int
        let change: Int?
    }

    /// A `Last-Event-ID` (or `since`): an event number, or `E.N` as an `inside` frame is numbered.
    static func resumePoint(_ text: String) -> ResumePoint? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let event = eventID(String(parts[0])) else { return nil }
        guard parts.count == 2 else { return ResumePoint(event: event, change: nil) }
        guard let change = eventID(String(parts[1])) else { return nil }
        return ResumePoint(event: event, change: change)
    }

    /// A plain decimal number: an optional `-`, digits, an optional fraction; no exponent, no `+`,
    /// no hexadecimal, no `inf`/`nan`, at most 32 characters. Finite, so safe to compare.
    static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32 else { return nil }
        var sawDigit = false
        var sawPoint = false
        for (index, byte) in trimmed.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: ".") where !sawPoint: sawPoint = true
            default: return nil
            }
        }
        guard sawDigit, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// A number from outside that is not one of the values its parser accepts.
    struct Invalid: Error {}

    /// The latest instant `GET …/inside` takes: past any session's life (115 days).
    static let maximumInstant = 1e10

    /// An instant of a session, `GET …/inside`'s `at` and `since`: milliseconds, 0 through
    /// ``maximumInstant``.
    static func instant(_ text: String) -> Double? {
        guard let value = decimal(text), value >= 0, value <= maximumInstant else { return nil }
        return value
    }

    /// `POST /api/marbles`'s `until`: virtual milliseconds, 1 through ``ProgramDrawing/maximumUntil``.
    static func until(_ text: String) -> Double? {
        guard let value = decimal(text), value >= 1, value <= ProgramDrawing.maximumUntil else { return nil }
        return value
    }

    /// The marbles view's `frame`: milliseconds per character, in ``SessionMarbles/frameRange``.
    static func frame(_ text: String) -> Double? {
        guard let value = decimal(text), SessionMarbles.frameRange.contains(value) else { return nil }
        return value
    }

    /// The `advance` input's milliseconds: a JSON number or a number as text, 0 through
    /// ``Session/maximumAdvance``.
    static func advanceMilliseconds(_ raw: RawInput) -> Double? {
        let milliseconds: Double?
        switch raw {
        case .json(.int(let value)): milliseconds = Double(value)
        case .json(.double(let value)): milliseconds = value
        case .text(let text): milliseconds = decimal(text)
        default: milliseconds = nil
        }
        guard let milliseconds, milliseconds.isFinite, milliseconds >= 0, milliseconds <= Session.maximumAdvance else {
            return nil
        }
        return milliseconds
    }
}
