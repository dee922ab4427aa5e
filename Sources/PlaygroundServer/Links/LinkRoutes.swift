import Foundation
import Locking
import Logging
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

    /// The store's size as last measured (``recordSize(_:_:)``), for the share of what is left.
    private let measuredBytes = Lock<Int?>(nil)
    /// When the store's size was last measured for the gauge (at most once a second: measuring
    /// after every link was a tenth of a link's time on the store's one thread).
    private let lastMeasured = Lock<ContinuousClock.Instant?>(nil)
    /// Where the store's failures are said (their text names no password: ``StoreError``).
    private let logger: Logger
    /// When a failure was last logged: at most one line every 10 s while the store is down.
    private let lastFailureLogged = Lock<ContinuousClock.Instant?>(nil)

    init(store: any LinkStore, perClient: Int = 8, logger: Logger = Logger(label: "playground.store")) {
        self.store = store
        waiting = FairWorkQueue(perClient: perClient)
        self.logger = logger
    }

    /// 503 `storage_unavailable` for a store that could not answer; the error is logged (at most
    /// once every 10 s), never shown to the client.
    func failed(_ error: StoreError, _ metrics: PlaygroundMetrics) -> HTTPResponse {
        metrics.linkRefused("storage_unavailable")
        let now = ContinuousClock.now
        let due = lastFailureLogged.withLock { last in
            guard last.map({ now - $0 >= .seconds(10) }) ?? true else { return false }
            last = now
            return true
        }
        if due { logger.error("the store could not answer; links answer 503 meanwhile", metadata: ["error": "\(error)"]) }
        return PlaygroundError(.storageUnavailable, "The store could not answer; try again.", retryAfterSeconds: 5).response
    }

    /// Records the store's size in `metrics` if it was not measured in the last second (on the
    /// store's thread, after a new link).
    func measureIfDue(_ metrics: PlaygroundMetrics) {
        let now = ContinuousClock.now
        let due = lastMeasured.withLock { last in
            guard last.map({ now - $0 >= .seconds(1) }) ?? true else { return false }
            last = now
            return true
        }
        if due, let bytes = try? store.storedBytes() { recordSize(bytes, metrics) }
    }

    /// Notes that the store takes `bytes`: the gauge, and the size the share of what is left is
    /// reckoned from.
    func recordSize(_ bytes: Int, _ metrics: PlaygroundMetrics) {
        measuredBytes.withLock { $0 = bytes }
        metrics.storeBytes(bytes)
    }

    /// The store's size as last measured; `nil` before it was.
    var lastMeasuredBytes: Int? { measuredBytes.withLock { $0 } }

    /// Runs `work` with the store on the store's thread; `false`, without running it, when
    /// `client` has ``perClient`` calls waiting already.
    func run(for client: String, _ work: @escaping @Sendable (any LinkStore) -> Void) -> Bool {
        guard waiting.reserve(for: client) else { return false }
        waiting.enqueue({ [store] in work(store) }, for: client)
        queue.async { [waiting] in waiting.takeNext()?() }
        return true
    }
}

/// Links (docs/API.md, "Links"): `POST /api/links` keeps a program, a lesson or a course and
/// answers its link; `GET /api/links/{id}` gives it back; `GET /s/{id}` opens the page on it.
extension API {
    /// 415 unless the body is JSON; 429 past the client's rate of saves (decided from the head).
    func linkHead(_ request: inout HTTPRequest) -> HTTPResponse? {
        if let type = InputBody.mediaType(of: request), type != "application/json" {
            metrics.linkRefused("unsupported_media_type")
            return PlaygroundError(.unsupportedMediaType, "Send the link as application/json; not \(type).").response
        }
        let refusal = Self.rateLimited(request, by: linkSaves, "Too many links kept from your address; slow down.")
        if refusal != nil { metrics.linkRefused("rate_limited") }
        return refusal
    }

    /// `POST /api/links` with `{"kind", "title", "content", "from"?}`: the content validated as its
    /// kind on a program thread (a program by the checker, a lesson by ``LessonCheck``), then kept
    /// on the store's thread.
    func keepLink(_ request: HTTPRequest) -> HTTPResponse {
        let metrics = self.metrics
        guard let links else {
            metrics.linkRefused("storage_unavailable")
            return Self.storeUnavailable
        }
        let asked: NewLink
        switch Self.newLink(from: request.body) {
        case .failure(let refusal):
            metrics.linkRefused(refusal.reason)
            return refusal.response
        case .success(let link): asked = link
        }
        let client = request.clientAddress
        if let refusal = linkBytesRefusal(asked.content.utf8.count + asked.title.utf8.count, for: client) { return refusal }
        let lessons = Set(self.lessons.lessons.map(\.id))
        let rules = programRules  // as the editor's check: other libraries' names answered with ours
        let maxBytes = maxStoreBytes
        return .deferred { [sessions] respond in
            // Step 1, the content checked where programs run; step 2, the store, on its thread.
            let started = sessions.onProgramThread(for: client) {
                if let refusal = Self.contentRefusal(asked, rules: rules) {
                    metrics.linkRefused(refusal.reason)
                    return respond(refusal.response)
                }
                let queued = links.run(for: client) { _ in
                    let response = Self.keep(asked, in: links, within: maxBytes, lessons: lessons, metrics: metrics)
                    respond(response)
                    if response.status == 201 { links.measureIfDue(metrics) }
                }
                if !queued { respond(Self.storeBusy(links, metrics)) }
            }
            if !started {
                metrics.linkRefused("share_used")
                respond(
                    PlaygroundError(
                        .shareUsed,
                        "Your address has \(sessions.programWork.perClient) programs waiting to be checked, run or drawn; "
                            + "wait for their answers before keeping more.",
                        retryAfterSeconds: 1
                    ).response
                )
            }
        }
    }

    /// `GET /api/links/{id}`: the link, or 404.
    func readLink(_ request: HTTPRequest) -> HTTPResponse {
        let metrics = self.metrics
        guard let links else { return Self.storeUnavailable }
        let id = request.parameters["id"] ?? ""
        guard LinkID.isWellFormed(id) else { return Self.linkNotFound }
        return .deferred { respond in
            let queued = links.run(for: request.clientAddress) { store in
                do throws(StoreError) {
                    guard let link = try store.link(id) else { return respond(Self.linkNotFound) }
                    metrics.linkRead(link.kind.rawValue)
                    respond(.json(LinkAnswer(link, content: true)))
                } catch {
                    respond(links.failed(error, metrics))
                }
            }
            if !queued { respond(Self.storeBusy(links, metrics)) }
        }
    }

    /// `GET /s/{id}`: the page, which opens the link its address names (an id of the wrong form
    /// is 404 at once; one of the right form that names nothing is said so by the page).
    func linkPage(_ request: HTTPRequest) -> HTTPResponse {
        guard LinkID.isWellFormed(request.parameters["id"] ?? "") else { return Self.linkNotFound }
        return staticFiles.respond(to: HTTPRequest(method: .get, rawPath: "/index.html"))
    }

    /// Keeps `link` (a course's lessons and the link it is `from` checked against the store), on
    /// the store's thread: 201 for a new link, 200 for the same thing kept before, 507 when a new
    /// link would take the store past `maxBytes`.
    static func keep(
        _ link: NewLink,
        in links: LinkStoreWorker,
        within maxBytes: Int,
        lessons: Set<String>,
        metrics: PlaygroundMetrics
    ) -> HTTPResponse {
        let store = links.store
        do throws(StoreError) {
            if let from = link.from {
                guard let earlier = try store.link(from), earlier.kind == link.kind else {
                    metrics.linkRefused("from_unknown")
                    return LinkRefusal(.fromUnknown, "from names no \(link.kind.rawValue) link kept here.").response
                }
            }
            if link.kind == .course, let refusal = try courseRefusal(link.content, in: store, lessons: lessons) {
                metrics.linkRefused(refusal.reason)
                return refusal.response
            }
            let (kept, isNew) = try store.keep(link, within: maxBytes)
            metrics.linkKept(kept.kind.rawValue, isNew: isNew)
            var response = HTTPResponse.json(LinkAnswer(kept, content: false), status: isNew ? 201 : 200)
            response.addHeader("Location", "/api/links/\(kept.id)")
            return response
        } catch {
            guard error.isFull else { return links.failed(error, metrics) }
            metrics.linkRefused("storage_full")
            return PlaygroundError(.storageFull, "This server's store is full (--max-store-bytes): no new link can be kept.").response
        }
    }

    static let linkNotFound = PlaygroundError(.linkNotFound, "No link has this id.").response
    static let storeUnavailable = PlaygroundError(.storageUnavailable, "This server keeps no links.").response

    static func storeBusy(_ links: LinkStoreWorker, _ metrics: PlaygroundMetrics) -> HTTPResponse {
        metrics.linkRefused("share_used")
        return PlaygroundError(
            .shareUsed,
            "Your address has \(links.perClient) links waiting to be kept or read; wait for their answers.",
            retryAfterSeconds: 1
        ).response
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
