import Foundation
import MicroHTTP
import Pipelines
import Store

/// What a link must be before it is kept (docs/API.md, "Links"): its fields, then its content as
/// its kind — a program by the checker, a lesson by ``LessonCheck``, a course as a list of lessons.
extension API {
    /// The longest title kept, in characters.
    static let maxLinkTitle = 200
    /// The largest content kept, in bytes of UTF-8.
    static let maxLinkContent = 64 * 1024
    /// The most lessons a course lists.
    static let maxCourseLessons = 100

    /// Why a link is refused: its response, and the reason counted in the metrics.
    struct LinkRefusal: Error {
        let response: HTTPResponse
        let reason: String

        init(_ code: ErrorCode, _ message: String) {
            response = PlaygroundError(code, message).response
            reason = code.rawValue
        }

        init(response: HTTPResponse, reason: String) {
            self.response = response
            self.reason = reason
        }
    }

    /// The link a body asks for, its fields checked (not yet what its content means).
    static func newLink(from body: [UInt8]) -> Result<NewLink, LinkRefusal> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return .failure(LinkRefusal(.invalidJSON, "Send an object: {\"kind\": \"program\", \"title\": …, \"content\": …}."))
        }
        let known: Set<String> = ["kind", "title", "content", "from"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(LinkRefusal(.invalidLink, "A link has kind, title, content and from; not \(unknown.prefix(40))."))
        }
        guard let kindName = object["kind"] as? String, let kind = LinkKind(rawValue: kindName) else {
            return .failure(LinkRefusal(.invalidLink, "kind is \"program\", \"lesson\" or \"course\"."))
        }
        guard kind != .run else {
            return .failure(LinkRefusal(.invalidLink, "A run is kept from its session: POST /api/sessions/{sid}/recording."))
        }
        guard let rawTitle = object["title"] as? String else {
            return .failure(LinkRefusal(.invalidLink, "title is a string: what the link is called."))
        }
        let titleBytes = maxBytes(forCharacters: maxLinkTitle)
        let title = rawTitle.utf8.count > titleBytes ? "" : rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maxLinkTitle).contains(title.count), !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return .failure(
                LinkRefusal(.invalidLink, "title is 1 to \(maxLinkTitle) characters on one line, at most \(titleBytes) bytes of UTF-8.")
            )
        }
        guard let content = object["content"] as? String, !content.isEmpty else {
            return .failure(LinkRefusal(.invalidLink, "content is the text kept: a program, or a lesson's or a course's JSON."))
        }
        guard content.utf8.count <= maxLinkContent else {
            return .failure(
                LinkRefusal(.contentTooLarge, "content is at most \(maxLinkContent / 1024) KiB; this is \(content.utf8.count) bytes.")
            )
        }
        if let refusal = unkeepableText(title, "title") ?? unkeepableText(content, "content") { return .failure(refusal) }
        var from: String?
        if let given = object["from"], !(given is NSNull) {
            guard let id = given as? String, LinkID.isWellFormed(id) else {
                return .failure(LinkRefusal(.invalidLink, "from is the id of the link this one is a new version of."))
            }
            from = id
        }
        return .success(NewLink(kind: kind, title: title, content: content, from: from))
    }

    /// Why `text` cannot be kept exactly, if it cannot: a U+0000, which PostgreSQL's `text` cannot
    /// hold and C strings end at, so a link would read back cut where it was. Refused here, before
    /// anything is acknowledged, rather than changed by a store. (JSON cannot carry a lone
    /// surrogate into a Swift string, nor any text that is not UTF-8: the reader refuses those.)
    static func unkeepableText(_ text: String, _ field: String) -> LinkRefusal? {
        guard let offset = text.utf8.firstIndex(of: 0).map({ text.utf8.distance(from: text.utf8.startIndex, to: $0) }) else { return nil }
        return LinkRefusal(.invalidText, "\(field) holds a NUL character (U+0000) at byte \(offset), which no store keeps exactly; remove it.")
    }

    /// Why `link`'s content is refused as its kind, if it is — the part that needs no store: a
    /// program must check clean, a lesson pass ``LessonCheck`` (both run on a program thread).
    static func contentRefusal(_ link: NewLink, rules: ProgramRules) -> LinkRefusal? {
        switch link.kind {
        case .program:
            let errors = ProgramCheck.diagnostics(of: link.content, hints: rules.hints).filter { $0.severity == .error }
            guard !errors.isEmpty else { return nil }
            let invalid = ProgramInvalid(
                error: .init(
                    code: ErrorCode.programInvalid.rawValue,
                    message: "The program cannot run: \(errors.count) problem\(errors.count == 1 ? "" : "s") (see diagnostics).",
                    diagnostics: errors
                )
            )
            return LinkRefusal(response: .json(invalid, status: ErrorCode.programInvalid.status), reason: ErrorCode.programInvalid.rawValue)
        case .lesson:
            let problems = LessonCheck.check(Array(link.content.utf8), rules: rules).problems
            guard !problems.isEmpty else { return nil }
            let invalid = LessonInvalid(
                error: .init(
                    code: ErrorCode.lessonInvalid.rawValue,
                    message: "The lesson breaks \(problems.count) rule\(problems.count == 1 ? "" : "s") of docs/LESSONS.md (see problems).",
                    problems: problems
                )
            )
            return LinkRefusal(response: .json(invalid, status: ErrorCode.lessonInvalid.status), reason: ErrorCode.lessonInvalid.rawValue)
        case .course, .run:
            return nil
        }
    }

    /// Why a course's content is refused, if it is: `{"lessons": [ID, …]}`, 1 to 100 lessons, each
    /// a built-in lesson's id or a lesson link kept here (on the store's thread).
    static func courseRefusal(_ content: String, in store: any LinkStore, lessons: Set<String>) throws(StoreError) -> LinkRefusal? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(content.utf8))) as? [String: Any],
            object.keys.sorted() == ["lessons"], let list = object["lessons"] as? [String]
        else {
            return LinkRefusal(
                .courseInvalid,
                "A course is {\"lessons\": [\"reading-marbles\", …]}: lesson ids and lesson links' ids, in order."
            )
        }
        guard (1...maxCourseLessons).contains(list.count) else {
            return LinkRefusal(.courseInvalid, "A course has 1 to \(maxCourseLessons) lessons; this one has \(list.count).")
        }
        for (index, item) in list.enumerated() where !lessons.contains(item) {
            guard LinkID.isWellFormed(item), try store.link(item)?.kind == .lesson else {
                return LinkRefusal(.courseInvalid, "Lesson \(index + 1) of the course, \(item.prefix(40)), is no lesson here.")
            }
        }
        return nil
    }
}

/// 422 `lesson_invalid`: the rules a lesson breaks.
struct LessonInvalid: Encodable {
    struct Body: Encodable {
        let code: String
        let message: String
        let problems: [LessonCheck.Problem]
    }

    let error: Body
}
