/// Session ids: 128 random bits as 32 hex digits, unguessable, so a session link is a capability;
/// on a named instance (`--instance-id ID`) prefixed `ID.`, so that a proxy can send every request
/// for a session to the instance that owns it (deploy/nginx.conf), and an instance can tell a
/// session of another instance (421 `misdirected`) from one that does not exist (404).
enum SessionID {
    /// The longest instance id.
    static let maximumInstanceLength = 32

    /// Whether `id` can name an instance: a DNS label of 1 to 32 characters, `[a-z0-9-]`.
    static func isValidInstance(_ id: String) -> Bool {
        (1...maximumInstanceLength).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D }
    }

    /// A new id for a session of `instance` (none: the bare 32 digits).
    static func make(on instance: String?) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        return instance.map { "\($0).\(digits)" } ?? digits
    }

    /// The instance that `id` names, `ID.` before its 32 digits, or `nil` for an id without one.
    /// Only a well-formed id counts (a valid instance, then 32 lowercase hex digits): anything else
    /// is an id no instance made.
    static func instance(of id: String) -> String? {
        guard let dot = id.firstIndex(of: ".") else { return nil }
        let prefix = String(id[..<dot])
        let digits = id.utf8[id.utf8.index(after: dot)...]
        guard isValidInstance(prefix), digits.count == 32,
            digits.allSatisfy({ byte in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) })
        else { return nil }
        return prefix
    }
}
