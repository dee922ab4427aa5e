import CoreMetrics
import Synchronization

/// What one server records, through the swift-metrics API: counters, gauges and a timer, made by
/// the `MetricsFactory` it is given, so an embedder sends them to any backend (the playground
/// renders them for `GET /metrics` with swift-prometheus). Each server takes its factory as a
/// parameter, not from a process-wide bootstrap, so one process can run several servers with
/// separate figures (the tests do).
///
/// Every update is a call on a swift-metrics handle, from whichever thread does the work. The
/// server also keeps its own count of open connections: its connection cap reads it, and a
/// metrics backend cannot be read back.
public final class ServerMetrics: Sendable {
    private let openConnectionCount = Atomic<Int>(0)
    private let openConnections: Meter
    private let openEventStreams: Meter
    private let responsesByClass: [Counter]
    /// Time from a request's head to its response handed to libmicrohttpd (event streams excluded:
    /// their time is how long a client watches); a histogram in Prometheus.
    private let requestDuration: Timer
    let framesSent: Counter
    let framesDropped: Counter
    let bytesSent: Counter
    let slowClientsClosed: Counter
    let refusedBusy: Counter
    let requestDeadlinesExpired: Counter
    let hangUpsNoticed: Counter
    let heapTrims: Counter
    let headsTooLarge: Counter
    let compactStreamConnections: Counter

    /// The label of the request-latency timer.
    public static let requestDurationLabel = "microhttp_request_duration_seconds"
    /// Bucket bounds that suit the request-latency timer (a request takes tens of microseconds on
    /// loopback), for a backend that renders timers as histograms: swift-prometheus's
    /// `PrometheusMetricsFactory.durationHistogramBuckets[requestDurationLabel] = requestDurationBuckets`.
    public static let requestDurationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// Metrics made by `factory` (e.g. swift-prometheus's `PrometheusMetricsFactory` over a registry
    /// of the server's own); pass them to ``HTTPServer`` to have it update them.
    public init(factory: any MetricsFactory) {
        openConnections = Meter(label: "microhttp_open_connections", factory: factory)
        openEventStreams = Meter(label: "microhttp_open_sse_streams", factory: factory)
        responsesByClass = ["1xx", "2xx", "3xx", "4xx", "5xx"].map { statusClass in
            Counter(label: "microhttp_requests_total", dimensions: [("class", statusClass)], factory: factory)
        }
        requestDuration = Timer(label: Self.requestDurationLabel, factory: factory)
        framesSent = Counter(label: "microhttp_sse_frames_sent_total", factory: factory)
        framesDropped = Counter(label: "microhttp_sse_frames_dropped_total", factory: factory)
        bytesSent = Counter(label: "microhttp_bytes_sent_total", factory: factory)
        slowClientsClosed = Counter(label: "microhttp_sse_slow_clients_closed_total", factory: factory)
        refusedBusy = Counter(label: "microhttp_refused_busy_total", factory: factory)
        requestDeadlinesExpired = Counter(label: "microhttp_request_deadlines_expired_total", factory: factory)
        hangUpsNoticed = Counter(label: "microhttp_sse_hangups_total", factory: factory)
        heapTrims = Counter(label: "microhttp_heap_trims_total", factory: factory)
        headsTooLarge = Counter(label: "microhttp_request_heads_too_large_total", factory: factory)
        compactStreamConnections = Counter(label: "microhttp_compact_stream_connections_total", factory: factory)
    }

    /// Metrics made by the process's bootstrapped factory (`MetricsSystem.bootstrap`), which
    /// discards them unless the program bootstrapped one.
    public convenience init() {
        self.init(factory: MetricsSystem.factory)
    }

    /// Connections open now, as the server's connection cap reads them.
    var connectionCount: Int { openConnectionCount.load(ordering: .relaxed) }

    func connectionOpened() {
        openConnectionCount.add(1, ordering: .relaxed)
        openConnections.increment()
    }

    func connectionClosed() {
        openConnectionCount.subtract(1, ordering: .relaxed)
        openConnections.decrement()
    }

    func eventStreamOpened() { openEventStreams.increment() }

    func eventStreamClosed() { openEventStreams.decrement() }

    /// A request ended, answered with `status` (0 when it never was).
    func responded(status: Int) {
        responsesByClass[min(max(status / 100, 1), 5) - 1].increment()
    }

    /// A response (not an event stream) handed to libmicrohttpd `nanoseconds` after its head came.
    func answered(afterNanoseconds nanoseconds: UInt64) {
        requestDuration.recordNanoseconds(Int64(clamping: nanoseconds))
    }
}
