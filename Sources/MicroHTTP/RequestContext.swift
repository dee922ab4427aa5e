import Dispatch

/// What the server keeps for one request between libmicrohttpd's calls: the head, the body read so
/// far, and the status answered (for the access log). Touched only by its connection's polling
/// thread.
final class RequestContext {
    /// The request head, complete after libmicrohttpd's first call; only its method and path are
    /// kept once the response is queued (a long-lived event stream need not hold its headers).
    private(set) var head: HTTPRequest
    let started = DispatchTime.now()
    var body: [UInt8] = []
    /// Bytes of an oversized body read and thrown away (0 while the body is within the limit).
    var discardedBytes = 0
    var responded = false
    var status = 0
    var bytesSent = 0
    /// Whether the request counts against its client's cap (released when it completes).
    var isCountedForClient = false

    init(head: HTTPRequest) {
        self.head = head
    }

    /// Drops what the access log does not need.
    func releaseHead() {
        head = HTTPRequest(method: head.method, rawPath: head.rawPath, clientAddress: head.clientAddress)
    }
}
