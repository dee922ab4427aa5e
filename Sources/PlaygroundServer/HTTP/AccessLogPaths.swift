/// What the access log keeps of a path (docs/API.md, "Logs and addresses"): the ids that open
/// something — a session's, a room's, a link's, a join code — are capabilities, so each is cut to
/// its first characters and "…": enough to tell requests of one session apart when reading the
/// log, too few to open it. Scenario and lesson ids, which are public, stay whole.
///
/// The router finds a route by the path decoded, with empty segments dropped, so the path is read
/// the same way here: `/api/%73essions//ID` names the session as `/api/sessions/ID` does, and is
/// logged as shortened. Any other run of 16 letters and digits is cut too, wherever it is.
enum AccessLogPaths {
    /// The path segments after which a capability follows: `/api/sessions/ID`, `/api/rooms/ID`,
    /// `/api/links/ID`, `/s/ID` (four characters kept), `/api/join/CODE` (one kept: its
    /// instance's prefix, if any).
    static let capabilityParents: [String: Int] = ["sessions": 4, "rooms": 4, "links": 4, "s": 4, "join": 1]

    /// `path`, decoded, with every capability shortened.
    @Sendable static func shortened(_ path: String) -> String {
        let segments = path.split(separator: "/").map { decoded(String($0)) }
        var shown: [String] = []
        for (index, segment) in segments.enumerated() {
            if index > 0, let kept = capabilityParents[segments[index - 1].lowercased()] {
                shown.append(segment.count > kept ? segment.prefix(kept) + "…" : segment)
            } else {
                shown.append(cuttingLongRuns(segment))
            }
        }
        return "/" + shown.joined(separator: "/")
    }

    /// `segment` with every run of 16 or more ASCII letters and digits cut to its first four.
    static func cuttingLongRuns(_ segment: String) -> String {
        var result = ""
        var run = ""
        func flush() {
            result += run.count >= 16 ? run.prefix(4) + "…" : run
            run = ""
        }
        for character in segment {
            if character.isASCII, character.isLetter || character.isNumber {
                run.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// `text` with its `%XX` escapes decoded (as the router reads a path); left as it is when
    /// they make no UTF-8.
    static func decoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}
