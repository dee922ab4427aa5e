import Synchronization

/// Counters and gauges of one server, rendered for `GET /metrics` in Prometheus text format.
/// Every update is one atomic add, from whichever thread does the work.
public final class ServerMetrics: Sendable {
    let openConnections = Atomic<Int>(0)
    let openEventStreams = Atomic<Int>(0)
    let requests1xx = Atomic<Int>(0)
    let requests2xx = Atomic<Int>(0)
    let requests3xx = Atomic<Int>(0)
    let requests4xx = Atomic<Int>(0)
    let requests5xx = Atomic<Int>(0)
    let framesSent = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)
    let bytesSent = Atomic<Int>(0)
    let slowClientsClosed = Atomic<Int>(0)
    let refusedBusy = Atomic<Int>(0)
    let requestDeadlinesExpired = Atomic<Int>(0)
    let hangUpsNoticed = Atomic<Int>(0)
    let heapTrims = Atomic<Int>(0)
    let headsTooLarge = Atomic<Int>(0)

    /// Creates zeroed metrics; pass them to ``HTTPServer`` to have it update them.
    public init() {}

    func countResponse(status: Int) {
        switch status {
        case ..<200: requests1xx.add(1, ordering: .relaxed)
        case 200..<300: requests2xx.add(1, ordering: .relaxed)
        case 300..<400: requests3xx.add(1, ordering: .relaxed)
        case 400..<500: requests4xx.add(1, ordering: .relaxed)
        default: requests5xx.add(1, ordering: .relaxed)
        }
    }

    /// The current values in Prometheus text exposition format (version 0.0.4).
    public func prometheusText() -> String {
        func value(_ atomic: borrowing Atomic<Int>) -> Int { atomic.load(ordering: .relaxed) }
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, Int)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (labels, sample) in samples { text += "\(name)\(labels) \(sample)\n" }
        }
        metric("microhttp_open_connections", "gauge", "Open TCP connections.", [("", value(openConnections))])
        metric("microhttp_open_sse_streams", "gauge", "Open Server-Sent-Event streams.", [("", value(openEventStreams))])
        metric(
            "microhttp_requests_total",
            "counter",
            "Responses sent, by status class.",
            [
                (#"{class="1xx"}"#, value(requests1xx)), (#"{class="2xx"}"#, value(requests2xx)),
                (#"{class="3xx"}"#, value(requests3xx)), (#"{class="4xx"}"#, value(requests4xx)),
                (#"{class="5xx"}"#, value(requests5xx)),
            ]
        )
        metric("microhttp_sse_frames_sent_total", "counter", "Frames queued to event streams.", [("", value(framesSent))])
        metric(
            "microhttp_sse_frames_dropped_total",
            "counter",
            "Frames dropped because their stream had ended or fell behind.",
            [("", value(framesDropped))]
        )
        metric("microhttp_bytes_sent_total", "counter", "Response body bytes handed to libmicrohttpd.", [("", value(bytesSent))])
        metric(
            "microhttp_sse_slow_clients_closed_total",
            "counter",
            "Event streams closed because their queue overflowed.",
            [("", value(slowClientsClosed))]
        )
        metric(
            "microhttp_refused_busy_total",
            "counter",
            "Requests refused with 503 server_busy or 429 because of a connection cap.",
            [("", value(refusedBusy))]
        )
        metric(
            "microhttp_request_deadlines_expired_total",
            "counter",
            "Connections closed because a request (head and body) was not complete within the request timeout.",
            [("", value(requestDeadlinesExpired))]
        )
        metric(
            "microhttp_sse_hangups_total",
            "counter",
            "Event-stream clients found gone (closed, reset or silent) while their stream waited.",
            [("", value(hangUpsNoticed))]
        )
        metric(
            "microhttp_heap_trims_total",
            "counter",
            "Times freed heap memory was handed back to the system.",
            [("", value(heapTrims))]
        )
        metric(
            "microhttp_heap_free_bytes",
            "gauge",
            "Heap memory freed but kept by the allocator (glibc's mallinfo2 fordblks; 0 under other allocators).",
            [("", ConnectionWatch.heapFreeBytes)]
        )
        metric(
            "microhttp_request_heads_too_large_total",
            "counter",
            "Requests answered 431 by the server itself.",
            [("", value(headsTooLarge))]
        )
        return text
    }
}
