import Foundation
import MicroHTTP
import Pipelines
import Store

/// The links' store as the API reaches it: every call on the store's own thread, never
/// libmicrohttpd's polling thread, and at most ``perClient`` calls of one client waiting or
/// running (taken round robin, as programs' work is), so that one client cannot queue the others
/// out.
final class LinkStoreWorker: Sendable {
    let store: any LinkStore
    private let queue = DispatchQueue(label: "playground.store", qos: .utility)
    private let waiting: FairWorkQueue

    /// Calls one client may have waiting or running.
    var perClient: Int { waiting.perClient }

    init(store: any LinkStore, perClient: Int = 8) {
        self.store = store
        waiting = FairWorkQueue(perClient: perClient)
    }

    /// Runs `work` with the store on the store's thread; `false`, without running it, when
    /// `client` has ``perClient`` calls waiting already.
    func run(for client: String, _ work: @escaping @Sendable (any LinkStore) -> Void) -> Bool {
        guard waiting.reserve(for: client) else { return false }
        waiting.enqueue({ [store] in work(store) }, for: client)
        queue.async { [waiting] in waiting.takeNext()?() }
        return true
    }
}

/// Links (docs/API.md, "Links"): `POST /api/links` keeps a program or a course and answers its
/// link; `GET /api/links/{id}` gives it back; `GET /s/{id}` opens the page on it.
extension API {
    /// The longest title kept, in characters.
    static let maxLinkTitle = 120
    /// The most lessons a course lists.
    static let maxCourseLessons = 100

    /// 415 unless the body is JSON; 429 past the client's rate of saves (decided from the head).
    func linkHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        if let type = InputBody.mediaType(of: request), type != "application/json" {
            return .error(status: 415, code: "unsupported_media_type", message: "Send the link as application/json; not \(type).")
        }
        return Self.rateLimited(request, by: linkSaves, "Too many links kept from your address; slow down.")
    }

    /// `POST /api/links` with `{"kind", "title", "content", "from"?}`: the content validated as its
    /// kind (a program on a program thread, by the checker), then kept on the store's thread.
    func keepLink(_ request: HTTPRequest) -> HTTPResponse {
        guard let links else { return Self.storeUnavailable }
        let asked: NewLink
        switch Self.newLink(from: request.body) {
        case .failure(let refusal): return refusal.response
        case .success(let link): asked = link
        }
        let client = request.clientAddress
        let lessons = Set(self.lessons.lessons.map(\.id))
        let hints = gallery.operatorHints  // as the editor's check: other libraries' names answered with ours
        return .deferred { [sessions] respond in
            // Step 1, a program checked where programs are; step 2, the store, on its thread.
            let keep: @Sendable () -> Void = {
                let queued = links.run(for: client) { store in respond(Self.keep(asked, in: store, lessons: lessons)) }
                if !queued { respond(Self.storeBusy(links)) }
            }
            guard asked.kind == .program else { return keep() }
            let started = sessions.onProgramThread(for: client) {
                let errors = ProgramCheck.diagnostics(of: asked.content, hints: hints).filter { $0.severity == .error }
                if errors.isEmpty { keep() } else { respond(Self.linkProgramInvalid(errors)) }
            }
            if !started {
                respond(
                    .error(
                        status: 429,
                        code: "share_used",
                        message: "Your address has \(sessions.programWork.perClient) programs waiting to be checked, run or drawn; "
                            + "wait for their answers before keeping more.",
                        retryAfterSeconds: 1
                    )
                )
            }
        }
    }

    /// `GET /api/links/{id}`: the link, or 404.
    func readLink(_ request: HTTPRequest) -> HTTPResponse {
        guard let links else { return Self.storeUnavailable }
        let id = request.parameters["id"] ?? ""
        guard LinkID.isWellFormed(id) else { return Self.linkNotFound }
        return .deferred { respond in
            let queued = links.run(for: request.clientAddress) { store in
                do {
                    guard let link = try store.link(id) else { return respond(Self.linkNotFound) }
                    respond(.json(LinkAnswer(link, content: true)))
                } catch {
                    respond(Self.storeFailed(error))
                }
            }
            if !queued { respond(Self.storeBusy(links)) }
        }
    }

    /// `GET /s/{id}`: the page, which opens the link its address names (an id of the wrong form
    /// is 404 at once; one of the right form that names nothing is said so by the page).
    func linkPage(_ request: HTTPRequest) -> HTTPResponse {
        guard LinkID.isWellFormed(request.parameters["id"] ?? "") else { return Self.linkNotFound }
        return staticFiles.respond(to: HTTPRequest(method: .get, rawPath: "/index.html"))
    }

    // MARK: Validation and keeping

    /// Why a link is refused, as its response.
    struct LinkRefusal: Error {
        let response: HTTPResponse
        init(_ status: Int, _ code: String, _ message: String) {
            response = .error(status: status, code: code, message: message)
        }
    }

    /// The link a body asks for, its fields checked (not yet what its content means).
    static func newLink(from body: [UInt8]) -> Result<NewLink, LinkRefusal> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return .failure(LinkRefusal(400, "invalid_json", "Send an object: {\"kind\": \"program\", \"title\": …, \"content\": …}."))
        }
        let known: Set<String> = ["kind", "title", "content", "from"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(LinkRefusal(400, "invalid_link", "A link has kind, title, content and from; not \(unknown.prefix(40))."))
        }
        guard let kindName = object["kind"] as? String, let kind = LinkKind(rawValue: kindName), kind != .lesson else {
            return .failure(LinkRefusal(400, "invalid_link", "kind is \"program\" or \"course\"."))
        }
        guard let rawTitle = object["title"] as? String else {
            return .failure(LinkRefusal(400, "invalid_link", "title is a string: what the link is called."))
        }
        let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maxLinkTitle).contains(title.count), !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return .failure(LinkRefusal(400, "invalid_link", "title is 1 to \(maxLinkTitle) characters on one line."))
        }
        guard let content = object["content"] as? String, !content.isEmpty else {
            return .failure(LinkRefusal(400, "invalid_link", "content is the text kept: a program, or a course's JSON."))
        }
        var from: String?
        if let given = object["from"], !(given is NSNull) {
            guard let id = given as? String, LinkID.isWellFormed(id) else {
                return .failure(LinkRefusal(400, "invalid_link", "from is the id of the link this one is a new version of."))
            }
            from = id
        }
        return .success(NewLink(kind: kind, title: title, content: content, from: from))
    }

    /// Keeps `link` (a course's lessons and the link it is `from` checked against the store), on
    /// the store's thread: 201 for a new link, 200 for the same thing kept before.
    static func keep(_ link: NewLink, in store: any LinkStore, lessons: Set<String>) -> HTTPResponse {
        do {
            if let from = link.from {
                guard let earlier = try store.link(from), earlier.kind == link.kind else {
                    return LinkRefusal(422, "from_unknown", "from names no \(link.kind.rawValue) link kept here.").response
                }
            }
            if link.kind == .course, let refusal = try courseRefusal(link.content, in: store, lessons: lessons) { return refusal.response }
            let (kept, isNew) = try store.keep(link)
            var response = HTTPResponse.json(LinkAnswer(kept, content: false), status: isNew ? 201 : 200)
            response.addHeader("Location", "/api/links/\(kept.id)")
            return response
        } catch {
            return storeFailed(error)
        }
    }

    /// Why a course's content is refused, if it is: `{"lessons": [ID, …]}`, 1 to 100 lessons, each
    /// a built-in lesson's id or a lesson link kept here.
    static func courseRefusal(_ content: String, in store: any LinkStore, lessons: Set<String>) throws(StoreError) -> LinkRefusal? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(content.utf8))) as? [String: Any],
            object.keys.sorted() == ["lessons"], let list = object["lessons"] as? [String]
        else {
            return LinkRefusal(422, "course_invalid", "A course is {\"lessons\": [\"reading-marbles\", …]}: lesson ids, in order.")
        }
        guard (1...maxCourseLessons).contains(list.count) else {
            return LinkRefusal(422, "course_invalid", "A course has 1 to \(maxCourseLessons) lessons; this one has \(list.count).")
        }
        for (index, item) in list.enumerated() where !lessons.contains(item) {
            guard LinkID.isWellFormed(item), try store.link(item)?.kind == .lesson else {
                return LinkRefusal(422, "course_invalid", "Lesson \(index + 1) of the course, \(item.prefix(40)), is no lesson here.")
            }
        }
        return nil
    }

    static let linkNotFound = HTTPResponse.error(status: 404, code: "link_not_found", message: "No link has this id.")
    static let storeUnavailable = HTTPResponse.error(status: 503, code: "store_unavailable", message: "This server keeps no links.")

    static func storeBusy(_ links: LinkStoreWorker) -> HTTPResponse {
        .error(
            status: 429,
            code: "share_used",
            message: "Your address has \(links.perClient) links waiting to be kept or read; wait for their answers.",
            retryAfterSeconds: 1
        )
    }

    static func storeFailed(_ error: Error) -> HTTPResponse {
        .error(status: 503, code: "store_failed", message: "The store could not answer; try again.", retryAfterSeconds: 5)
    }

    static func linkProgramInvalid(_ errors: [Diagnostic]) -> HTTPResponse {
        .json(
            ProgramInvalid(
                error: .init(
                    code: "program_invalid",
                    message: "The program cannot run: \(errors.count) problem\(errors.count == 1 ? "" : "s") (see diagnostics).",
                    diagnostics: errors
                )
            ),
            status: 422
        )
    }
}

/// A link as the API answers it.
struct LinkAnswer: Encodable {
    let id: String
    let url: String
    let kind: String
    let title: String
    let created: String
    let from: String?
    let content: String?

    init(_ link: Link, content: Bool) {
        id = link.id
        url = "/s/\(link.id)"
        kind = link.kind.rawValue
        title = link.title
        created = link.created.formatted(.iso8601)
        from = link.from
        self.content = content ? link.content : nil
    }
}
