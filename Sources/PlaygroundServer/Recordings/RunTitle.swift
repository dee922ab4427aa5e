import Foundation
import Scenarios

/// A kept run's title (docs/API.md, "Recordings"): what the learner calls it, kept and read back
/// exactly as given — never trimmed, folded or cut — or refused, saying why.
extension API {
    /// The longest title a run keeps, in characters.
    static let maxRunTitle = 200
    /// The most bytes of UTF-8 a run's title takes: counted before anything else is read of it.
    static let maxRunTitleBytes = 800

    /// The title of a run of `scenarioTitle` when none is given: "A run of Throttled search".
    static func defaultRunTitle(of scenarioTitle: String) -> String {
        "A run of \(scenarioTitle)"
    }

    /// `text` as a run's title, exactly as given, or the refusal (400 `invalid_value`) that says
    /// which rule it breaks: at most ``maxRunTitleBytes`` bytes of UTF-8, 1 to ``maxRunTitle``
    /// characters on one line (no control character — U+0000 to U+001F, U+007F to U+009F — and
    /// no line or paragraph separator), not blank, and no space at its start or end (the page
    /// trims; a title kept must read back as it was sent).
    static func runTitle(_ text: String) -> Result<String, PlaygroundError> {
        let bytes = text.utf8.count
        guard bytes <= maxRunTitleBytes else {
            return .failure(refusal("title is at most \(maxRunTitleBytes) bytes of UTF-8; this one is \(bytes)."))
        }
        for (index, scalar) in text.unicodeScalars.enumerated() where breaksTheLine(scalar) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            let name = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
            return .failure(refusal("title holds a control character (\(name)) at character \(index + 1); a title is one line of text."))
        }
        guard text.contains(where: { !$0.isWhitespace }) else {
            return .failure(refusal("title is 1 to \(maxRunTitle) characters, not blank: what the run is called."))
        }
        guard text.count <= maxRunTitle else {
            return .failure(refusal("title is at most \(maxRunTitle) characters; this one is \(text.count)."))
        }
        guard text.first?.isWhitespace != true, text.last?.isWhitespace != true else {
            return .failure(refusal("title begins or ends with a space; send it trimmed, as it is to be read back."))
        }
        return .success(text)
    }

    /// The title a body to keep a run asks for (`{"title"?: …}`): the default when it names none.
    static func runTitle(in fields: [String: JSONValue], default fallback: String) -> Result<String, PlaygroundError> {
        if let unknown = fields.keys.sorted().first(where: { $0 != "title" }) {
            return .failure(refusal("`\(unknown.prefix(40))` is not a field here; the one field is title."))
        }
        guard let given = fields["title"] else { return .success(fallback) }
        guard case .string(let text) = given else {
            return .failure(refusal("title is a string: what the run is called."))
        }
        return runTitle(text)
    }

    /// A scalar no title may hold: a control character (general category Cc), or a line or
    /// paragraph separator — each would break the one line a title is shown on.
    private static func breaksTheLine(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func refusal(_ message: String) -> PlaygroundError {
        PlaygroundError(.invalidValue, message)
    }
}
