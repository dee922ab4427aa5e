import Foundation

/// What a link keeps (docs/API.md, "Links").
public enum LinkKind: String, Sendable, CaseIterable {
    /// A program of the pipeline language, opened in the editor.
    case program
    /// A lesson, in the format of `Public/lessons/` (docs/LESSONS.md), taken as a learner.
    case lesson
    /// An ordered list of lessons: built-in lesson ids and lesson links.
    case course
    /// A session's recording: what it ran and the events it kept, replayed on the page. Kept from
    /// its session by the server, never posted as content.
    case run
}

/// Something kept by its link, `/s/ID`. A link never changes: an edit is kept as a new link whose
/// `from` names the one it was made from.
public struct Link: Sendable, Equatable {
    /// The link's id: random, 16 characters of ``LinkID/alphabet``.
    public let id: String
    public let kind: LinkKind
    public let title: String
    /// The kept text: a program's source, or a lesson's or a course's JSON.
    public let content: String
    /// When it was first kept, to the second.
    public let created: Date
    /// The link this one is a new version of, if any.
    public let from: String?

    /// A link as the store read it.
    public init(id: String, kind: LinkKind, title: String, content: String, created: Date, from: String?) {
        self.id = id
        self.kind = kind
        self.title = title
        self.content = content
        self.created = created
        self.from = from
    }
}

/// What a client asks to keep; the store gives it an id and a date.
public struct NewLink: Sendable, Equatable {
    public let kind: LinkKind
    public let title: String
    public let content: String
    public let from: String?

    /// A thing to keep, already validated as its kind.
    public init(kind: LinkKind, title: String, content: String, from: String? = nil) {
        self.kind = kind
        self.title = title
        self.content = content
        self.from = from
    }

    /// The same thing kept twice is one link: what is compared, in one string (its parts
    /// separated by a byte that text cannot hold, so that no two different links read the same).
    var identity: String {
        [kind.rawValue, title, content, from ?? ""].joined(separator: "\u{0}")
    }

    /// A short digest of ``identity`` that finds the links that may be the same (FNV-1a, 64 bits,
    /// as hex): the store compares the candidates' text, so a collision costs a comparison only.
    /// The bytes the link adds to a store, at least (its text; the row and index cost more).
    var bytes: Int {
        title.utf8.count + content.utf8.count
    }

    var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Link ids: random, so that no id tells another.
public enum LinkID {
    /// Lower-case letters and digits without the look-alikes `0`, `o`, `1`, `l` and `i`: an id can be
    /// read aloud and typed.
    public static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz")
    /// 16 characters of 31: about 79 random bits.
    public static let length = 16

    /// A new random id, from the system's cryptographic generator.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// Whether `text` has an id's form (checked before any lookup: an id from outside is only
    /// ever compared, never put into a query's text).
    public static func isWellFormed(_ text: some StringProtocol) -> Bool {
        text.count == length && text.allSatisfy { alphabet.contains($0) }
    }
}

/// Why the store could not answer.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the log (never shown to a client as is).
    public let description: String
    /// Whether the store is full (``LinkStore/keep(_:within:)``'s limit) rather than unreachable.
    public let isFull: Bool

    /// The store cannot answer: unreachable, or its answer broken.
    public init(_ description: String) {
        self.description = description
        isFull = false
    }

    /// Keeping a new link would take the store past `limit` bytes; it holds `bytes`.
    public static func full(holding bytes: Int, limit: Int) -> StoreError {
        StoreError(full: "the store holds \(bytes) bytes; a new link would take it past its limit, \(limit)")
    }

    private init(full description: String) {
        self.description = description
        isFull = true
    }
}

/// Where links are kept: each call is a short transaction, made on the caller's thread (the
/// server calls it from its store threads, never from the HTTP polling thread).
public protocol LinkStore: Sendable {
    /// Keeps `link`; answers the link and whether it is new. The same kind, title, content and
    /// `from` kept again answers the link kept the first time (`isNew` false), however full the
    /// store; a new link that would take ``storedBytes()`` past `maxBytes` throws
    /// ``StoreError/full(holding:limit:)``.
    func keep(_ link: NewLink, within maxBytes: Int) throws(StoreError) -> (link: Link, isNew: Bool)

    /// The bytes the store's links take on disk (tables and indexes), as the database counts them.
    func storedBytes() throws(StoreError) -> Int

    /// The link `id`, or nil when there is none.
    func link(_ id: String) throws(StoreError) -> Link?
}

extension LinkStore {
    /// Keeps `link` however large the store is.
    public func keep(_ link: NewLink) throws(StoreError) -> (link: Link, isNew: Bool) {
        try keep(link, within: .max)
    }
}
