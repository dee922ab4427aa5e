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

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[ServerMetrics.requestDurationLabel] = ServerMetrics.requestDurationBuckets
        server = ServerMetrics(factory: factory)
        liveSessions = CoreMetrics.Gauge(label: "playground_sessions", factory: factory)
    }

    /// Every metric in Prometheus text exposition format, with `sessions` as the live-session gauge.
    func render(sessions: Int) -> [UInt8] {
        liveSessions.record(sessions)
        return registry.emitToBuffer()
    }
}
