import Foundation

/// Text from outside that pages show — a student's name, a room's or a run's title: bounded in
/// characters, as people count, and in bytes of UTF-8, as memory does. One `Character` can be any
/// number of bytes (a letter followed by 30,000 combining marks is one), so the byte bound is what
/// keeps a name from costing a room 60 KB; it is checked first, before the text is looked at.
extension API {
    /// A student's name, in characters.
    static let maxStudentName = 40

    /// The bytes of UTF-8 a text of `maximum` characters may take: four a character, the most one
    /// scalar takes — room for any script, none for runs of combining marks.
    static func maxBytes(forCharacters maximum: Int) -> Int { 4 * maximum }

    /// `text` as a name or title a page shows: control characters dropped, runs of spaces made
    /// one, trimmed; `nil` when empty, longer than `maximum` characters, or more than
    /// ``maxBytes(forCharacters:)`` bytes (measured before anything else is done with it).
    static func displayText(_ text: String, maximum: Int) -> String? {
        guard text.utf8.count <= maxBytes(forCharacters: maximum) else { return nil }
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
        let words = printable.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !words.isEmpty, words.count <= maximum else { return nil }
        return words
    }

    /// What ``displayText(_:maximum:)`` takes, said of `field`: "title is text of 1 to 200
    /// characters, at most 800 bytes of UTF-8."
    static func displayTextRule(_ field: String, maximum: Int) -> String {
        "\(field) is text of 1 to \(maximum) characters, at most \(maxBytes(forCharacters: maximum)) bytes of UTF-8."
    }

    /// `text` without control characters, cut to at most `bytes` bytes of UTF-8 at a character's
    /// end, with "…" when cut: how a title from elsewhere (a lesson's, a course's) is shown where
    /// its bytes must be bounded, as in a room's snapshot.
    static func shortened(_ text: String, toBytes bytes: Int) -> String {
        let text =
            text.unicodeScalars.contains(where: CharacterSet.controlCharacters.contains)
            ? String(String.UnicodeScalarView(text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })) : text
        guard text.utf8.count > bytes else { return text }
        var kept = ""
        var used = 3  // the ellipsis's bytes
        for character in text {
            used += character.utf8.count
            guard used <= bytes else { break }
            kept.append(character)
        }
        return kept + "…"
    }
}
