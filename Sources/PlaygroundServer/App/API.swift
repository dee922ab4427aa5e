import Foundation
import Logging
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// The playground's HTTP contract (docs/API.md, Public/openapi.json): the catalogue, sessions, inputs, event streams
/// and the page. Error precedence: 404 (route, scenario, session, input), 405, 415, 413, 400 — the
/// first four are decided from the request head (preflight), before any body is read.
struct API: Sendable {
    let staticFiles: StaticFiles
    let sessions: SessionStore
    /// The live rooms, whose sessions are among `sessions` (``RoomStore``).
    let rooms: RoomStore
    var metrics = PlaygroundMetrics()
    /// The catalogue and each scenario's entry, encoded once: they never change while the server
    /// runs (encoded per request, with every scenario's source, they held `/api/scenarios` to
    /// about 2,600 requests a second).
    let catalogue = PreparedCatalogue()
    /// Programs run (`POST /api/pipelines`) per client (`--program-runs-per-second`).
    var programRuns = ClientRateLimiter(perSecond: 2, burst: 40)
    /// Programs checked (`POST /api/pipelines/check`) per client: an editor checking as the user
    /// types (`--program-checks-per-second`).
    var programChecks = ClientRateLimiter(perSecond: 60, burst: 60)
    /// Marble programs run (`POST /api/marbles`) per client: a gallery redrawing as a marble is
    /// dragged (`--marble-runs-per-second`).
    var marbleRuns = ClientRateLimiter(perSecond: 60, burst: 60)
    /// Finds (`POST /api/marbles/find`, hundreds of marble runs each) per client
    /// (`--marble-finds-per-second`).
    var marbleFinds = ClientRateLimiter(perSecond: 2, burst: 6)
    /// The wall-clock time one find may take (``MarblesFind/timeBudget``).
    var findTimeBudget = MarblesFind.timeBudget
    /// What a program may do and make (`--max-value-bytes`), in sessions and marble runs alike.
    var programLimits = StepBudget.Limits.standard
    /// The largest answer of `POST /api/marbles` (`--marbles-answer-bytes`).
    var marblesAnswerBytes = ProgramDrawing.defaultAnswerBytes
    /// The gallery's entries, for `/oembed` (read from the page's folder at startup).
    var gallery = GalleryIndex()
    /// Reactive's documentation site, served under `/docs/` when it was built (``Documentation``).
    var documentation: StaticFiles?
    /// The course's lessons, for `GET /api/lessons` (read from the page's folder at startup).
    var lessons = LessonIndex()
    /// Where links are kept (`--database`); none: the links' routes answer 503.
    var links: LinkStoreWorker?
    /// Links kept (`POST /api/links`) per client (`--link-saves-per-second`, `--link-save-burst`).
    var linkSaves = ClientRateLimiter(perSecond: 2, burst: 60)
    /// Bytes of links kept per client in an hour (`--link-bytes-per-hour`): the store is shared,
    /// and a run is up to a MiB, so the count of links alone would let one address fill it.
    var linkBytes = ClientRateLimiter(perSecond: Double(API.defaultLinkBytesPerHour) / 3_600, burst: Double(API.defaultLinkBytesPerHour))
    /// `--link-bytes-per-hour`'s default: 256 MiB, a class of thirty keeping a few runs each.
    static let defaultLinkBytesPerHour = 256 << 20
    /// The most bytes the store may take before new links answer 507 (`--max-store-bytes`).
    var maxStoreBytes = 1 << 30
    /// Rooms opened (`POST /api/rooms`) per client.
    var roomCreations = ClientRateLimiter(perSecond: 1, burst: 10)
    /// Joins (`POST /api/join/{code}`) per client, a failed one counting ``joinFailureCost``
    /// (`--join-attempts-per-second`, `--join-burst`): codes cannot be scanned.
    var joinAttempts = ClientRateLimiter(perSecond: 1, burst: 100)
    /// Recordings built (`GET`/`POST /api/sessions/{sid}/recording`) per client
    /// (`--recordings-per-second`, in bursts of ten times as many): each is up to a MiB of events.
    var recordingReads = ClientRateLimiter(perSecond: 2, burst: 20)

    /// The API over `sessions`, with rooms within `roomLimits`.
    init(staticFiles: StaticFiles, sessions: SessionStore, metrics: PlaygroundMetrics = PlaygroundMetrics(), roomLimits: RoomLimits = RoomLimits()) {
        self.staticFiles = staticFiles
        self.sessions = sessions
        self.metrics = metrics
        rooms = RoomStore(limits: roomLimits, sessions: sessions, logger: Logger(label: "playground.rooms"))
    }

    /// What any page may load: this server's own scripts, styles and data alone. Images may also
    /// be `blob:` URLs, which only the page's own scripts make: the diagram drawn into a PNG.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'self'; "

    /// Sent with every response: no sniffing, a same-origin-only page that no site may frame (the
    /// embeds replace the last two, ``embedHeaders``), no referrer.
    static let securityHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", contentSecurityPolicy + "frame-ancestors 'none'"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// An event stream is no document: it loads nothing and no site may frame it. The page's
    /// policy would be as safe, but libmicrohttpd keeps a copy of every header for as long as a
    /// stream is open (three allocations each), and this one is 130 bytes shorter.
    static let eventStreamContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

    /// A Server-Sent-Events response with ``eventStreamContentSecurityPolicy`` in place of the
    /// page's policy, and without `X-Frame-Options` and `Referrer-Policy`: the policy's
    /// `frame-ancestors 'none'` forbids framing in every browser that runs `EventSource` (CSP
    /// level 2 replaced `X-Frame-Options`), and a stream requests nothing that could carry a
    /// referrer. Only `nosniff` stays of the defaults.
    static func eventStream(open: @escaping @Sendable (EventStream) -> Void) -> HTTPResponse {
        var response = HTTPResponse.eventStream(open: open)
        response.addHeader("Content-Security-Policy", eventStreamContentSecurityPolicy)
        response.addHeader("X-Frame-Options", "")
        response.addHeader("Referrer-Policy", "")
        return response
    }

    /// Every route: each feature adds its own (its route group, in its folder), then the page's
    /// files and the documentation site answer what no route does.
    func router() -> Router {
        var router = Router()
        addHealthRoutes(to: &router)
        addScenarioRoutes(to: &router)
        addSessionRoutes(to: &router)
        addProgramRoutes(to: &router)
        addLessonRoutes(to: &router)
        addDrawingRoutes(to: &router)
        addFindRoutes(to: &router)
        addLinkRoutes(to: &router)
        addRoomRoutes(to: &router)
        addGalleryRoutes(to: &router)
        router.setFallback { [staticFiles, documentation] request in
            guard request.rawPath == "/docs" || request.rawPath.hasPrefix("/docs/") else { return staticFiles.respond(to: request) }
            return Documentation.respond(to: request, from: documentation)
        }
        return router
    }
}
