/// What the access log keeps of a path (docs/API.md, "Logs"): the ids that open something — a
/// session's, a room's, a link's, a join code — are capabilities, so each is cut to its first
/// characters and "…": enough to tell requests of one session apart when reading the log, too few
/// to open it. Scenario and lesson ids, which are public, stay whole.
enum AccessLogPaths {
    /// The path segments after which a capability follows: `/api/sessions/ID`, `/api/rooms/ID`,
    /// `/api/join/CODE`, `/api/links/ID`, `/s/ID`.
    static let capabilityParents: Set<Substring> = ["sessions", "rooms", "join", "links", "s"]

    /// `path` with every capability shortened: four characters of an id (a session's 32 hex
    /// digits, a link's 16 characters), one of a join code (its instance's prefix, if any).
    @Sendable static func shortened(_ path: String) -> String {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count > 2 else { return path }
        for index in segments.indices.dropFirst() where capabilityParents.contains(segments[index - 1]) {
            let segment = segments[index]
            let kept = segment.count > 8 ? 4 : 1
            guard segment.count > kept else { continue }
            segments[index] = segment.prefix(kept) + "…"
        }
        return segments.joined(separator: "/")
    }
}
