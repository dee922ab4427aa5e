import CoreMetrics
import MicroHTTP
import Prometheus

/// The figures `GET /metrics` serves: the HTTP server's and the playground's own, recorded through
/// the swift-metrics API into a swift-prometheus registry of this server's own (not a process-wide
/// bootstrap), and rendered in Prometheus text format.
final class PlaygroundMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// The HTTP server's metrics: give them to the `HTTPServer`.
    let server: ServerMetrics
    private let liveSessions: CoreMetrics.Gauge
    private let programEventBytes: CoreMetrics.Gauge
    fileprivate let factory: PrometheusMetricsFactory

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[ServerMetrics.requestDurationLabel] = ServerMetrics.requestDurationBuckets
        self.factory = factory
        server = ServerMetrics(factory: factory)
        liveSessions = CoreMetrics.Gauge(label: "playground_sessions", factory: factory)
        programEventBytes = CoreMetrics.Gauge(label: "playground_program_event_bytes", factory: factory)
    }

    /// A program reached a limit (`value_too_large`, `budget_exceeded`): counted once per program
    /// and reason, in sessions and marble runs alike (`playground_program_limits_total{reason}`).
    func programReachedLimit(_ reason: String) {
        CoreMetrics.Counter(label: "playground_program_limits_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// A `POST /api/marbles` answer stopped short (`until`, `steps`, `size`):
    /// `playground_marbles_truncated_total{reason}`.
    func marblesTruncated(_ reason: String) {
        CoreMetrics.Counter(label: "playground_marbles_truncated_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// A memory limit did its work: a program session refused (`share_used`: its client holds its
    /// share; `server_busy`: the heap over its limit, no client's programs to blame), an input's
    /// value refused (`value_too_large`), a program halted because the heap was over its limit
    /// (`program_halted`):
    /// `playground_memory_limits_total{reason}`.
    func memoryLimitReached(_ reason: String) {
        CoreMetrics.Counter(label: "playground_memory_limits_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Every metric in Prometheus text exposition format, with `sessions` as the live-session
    /// gauge and `programEventBytes` as what program sessions keep of their events together.
    func render(sessions: Int, programEventBytes bytes: Int, rooms: (rooms: Int, students: Int) = (0, 0)) -> [UInt8] {
        liveSessions.record(sessions)
        programEventBytes.record(bytes)
        CoreMetrics.Gauge(label: "playground_rooms", factory: factory).record(rooms.rooms)
        CoreMetrics.Gauge(label: "playground_room_students", factory: factory).record(rooms.students)
        return registry.emitToBuffer()
    }
}

/// The links' store (docs/API.md, "Links").
extension PlaygroundMetrics {
    /// A link kept: `playground_links_kept_total{kind, new}` (`new="false"`: the same content again).
    func linkKept(_ kind: String, isNew: Bool) {
        CoreMetrics.Counter(label: "playground_links_kept_total", dimensions: [("kind", kind), ("new", "\(isNew)")], factory: factory).increment()
    }

    /// A link read by `GET /api/links/{id}`: `playground_links_read_total{kind}`.
    func linkRead(_ kind: String) {
        CoreMetrics.Counter(label: "playground_links_read_total", dimensions: [("kind", kind)], factory: factory).increment()
    }

    /// A link refused, by its error code: `playground_link_refusals_total{reason}`.
    func linkRefused(_ reason: String) {
        CoreMetrics.Counter(label: "playground_link_refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// What the store takes on disk, as last measured (after each new link, and at start):
    /// `playground_store_bytes`.
    func storeBytes(_ bytes: Int) {
        CoreMetrics.Gauge(label: "playground_store_bytes", factory: factory).record(bytes)
    }
}

/// Rooms (docs/API.md, "Rooms"); their live numbers are gauges rendered with the rest.
extension PlaygroundMetrics {
    /// A room opened, by what it runs: `playground_rooms_opened_total{from}`.
    func roomOpened(_ kind: String) {
        CoreMetrics.Counter(label: "playground_rooms_opened_total", dimensions: [("from", kind)], factory: factory).increment()
    }

    /// A student joined a room: `playground_room_joins_total`.
    func roomJoined() {
        CoreMetrics.Counter(label: "playground_room_joins_total", factory: factory).increment()
    }

    /// A join refused, by its error code (`rate_limited`, `unknown_room`, `invalid_value`, …):
    /// `playground_room_join_refusals_total{reason}` — a scan of codes shows here.
    func roomJoinRefused(_ reason: String) {
        CoreMetrics.Counter(label: "playground_room_join_refusals_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// A question asked in a room: `playground_room_questions_total`.
    func roomAsked() {
        CoreMetrics.Counter(label: "playground_room_questions_total", factory: factory).increment()
    }

    /// An answer taken (a changed one too): `playground_room_answers_total`.
    func roomAnswered() {
        CoreMetrics.Counter(label: "playground_room_answers_total", factory: factory).increment()
    }
}
