import Foundation
import MicroHTTP

/// A room's secrets and how a request shows one (docs/API.md, "Rooms"): 128 random bits as 32 hex
/// digits, compared in constant time, sent as `Authorization: Bearer KEY` — or, for an
/// `EventSource`, which cannot send headers, as a cookie the room set on its own path
/// (`room_teacher`, `room_student`, `room_audience`: `HttpOnly`, `SameSite=Strict`), so that no
/// key is ever in a URL a log keeps.
enum RoomKeys {
    /// A new key: 128 random bits, as 32 hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// The characters of a join code: capitals and digits a person reads aloud and types without
    /// confusing them (no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, U/V).
    static let codeAlphabet = Array("ACEFGHJKMNPRTWXY34679")
    /// A join code's length: seven characters, 21⁷ ≈ 1.8 billion codes (21⁶ ≈ 86 million after an
    /// instance's prefix), so that guessing one of 200 open rooms, at the rate one address may
    /// guess (``API/joinFailureCost``), takes years (docs/API.md, "Joining").
    static let codeLength = 7

    /// A new join code (the store draws again on a clash), starting with `prefix` when one is
    /// given (an instance's, behind a proxy).
    static func makeCode(prefix: Character? = nil) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<(prefix == nil ? codeLength : codeLength - 1)).map { _ in codeAlphabet.randomElement(using: &generator)! }
        return String((prefix.map { [$0] } ?? []) + random)
    }

    /// `text` as a join code, upper-cased and without spaces or dashes (people type `ab3-k7x`);
    /// `nil` when it cannot be one.
    static func code(from text: String) -> String? {
        let code = String(text.uppercased().filter { $0 != " " && $0 != "-" })
        guard code.count == codeLength, code.allSatisfy(codeAlphabet.contains) else { return nil }
        return code
    }

    /// Whether `given` is `key`, in time that depends on their lengths alone.
    static func matches(_ given: String, _ key: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(key.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Who asks, as a request shows it: the audience is the projector's view, which watches the
    /// room and controls nothing (its key opens no route that changes anything).
    enum Role: String, Sendable {
        case teacher, student, audience

        /// The cookie that carries this role's key.
        var cookie: String { "room_" + rawValue }
    }

    /// The key a request shows: its `Authorization: Bearer` key, else the cookie of `role` (any
    /// role's when `role` is nil, the teacher's first).
    static func key(of request: HTTPRequest, as role: Role?) -> String? {
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        guard let header = request.header("Cookie") else { return nil }
        let names = role.map { [$0.cookie] } ?? [Role.teacher.cookie, Role.student.cookie, Role.audience.cookie]
        for name in names {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value that lets `role`'s `EventSource` show `key` on the room's paths
    /// alone, for `seconds`.
    static func cookie(_ key: String, role: Role, room: String, seconds: Int) -> String {
        "\(role.cookie)=\(key); Path=/api/rooms/\(room)/; Max-Age=\(seconds); HttpOnly; SameSite=Strict"
    }
}
