import Dispatch
import Locking

/// What the server keeps for one request between libmicrohttpd's calls: the head and the body
/// read so far until the response is queued, then only what the access log and the books need.
/// Touched only by its connection's polling thread.
///
/// The head and body live in an object of their own that goes when the response is queued, so a
/// long-lived event stream keeps about 100 bytes here instead of twice that.
final class RequestContext {
    /// What reading and dispatching the request need.
    private final class Reading {
        var head: HTTPRequest
        var body: [UInt8] = []
        /// Bytes of an oversized body read and thrown away (0 while the body is within the limit).
        var discardedBytes = 0

        init(head: HTTPRequest) { self.head = head }
    }

    /// Until the response is queued (`releaseHead()`).
    private var reading: Reading?
    let method: HTTPMethod
    /// The path as requested, for the access log.
    let path: String
    /// The client's address, whose count of requests in progress this request may hold.
    let clientAddress: String
    let started = DispatchTime.now()
    /// The response being computed on another thread while the connection is suspended; kept
    /// until the request completes, for shutdown's wait.
    var deferred: DeferredResponse?
    var bytesSent = 0
    var status: UInt16 = 0
    var responded = false
    /// Whether the request counts against its client's cap (released when it completes).
    var isCountedForClient = false
    /// Whether the client speaks HTTP/1.0, which has no chunked encoding.
    let isHTTP10: Bool

    init(head: HTTPRequest, isHTTP10: Bool) {
        reading = Reading(head: head)
        method = head.method
        path = head.rawPath
        clientAddress = head.clientAddress
        self.isHTTP10 = isHTTP10
    }

    /// The request head; once the response is queued, only its method, path and client address.
    var head: HTTPRequest {
        reading?.head ?? HTTPRequest(method: method, rawPath: path, clientAddress: clientAddress)
    }

    /// The body read so far (empty once the response is queued).
    var bodyCount: Int { reading?.body.count ?? 0 }

    /// Bytes of an oversized body read and thrown away (0 while the body is within the limit).
    var discardedBytes: Int { reading?.discardedBytes ?? 0 }

    /// Appends what libmicrohttpd read of the body.
    func appendBody(_ bytes: UnsafeBufferPointer<UInt8>) {
        reading?.body.append(contentsOf: bytes)
    }

    /// Throws the body read so far away, counting it and `more` bytes as discarded.
    func discardBody(andMore more: Int) {
        guard let reading else { return }
        reading.discardedBytes += reading.body.count + more  // bounded: the caller stops past a limit
        reading.body = []
    }

    /// The body, handed over once to the handler.
    func takeBody() -> [UInt8] {
        guard let reading else { return [] }
        defer { reading.body = [] }
        return reading.body
    }

    /// Drops what the access log does not need.
    func releaseHead() {
        reading = nil
    }
}

/// A response computed on another thread for a suspended connection: the worker stores it and
/// resumes the connection, under one lock with the connection's end, so a resume never reaches a
/// connection libmicrohttpd has freed. The first completion wins: at shutdown the server completes
/// every pending one with 503, since libmicrohttpd refuses to stop with a connection suspended.
final class DeferredResponse: Sendable {
    private struct State {
        var connection: ConnectionHandle?
        var loop: PollingLoop?
        var response: HTTPResponse?
        var isComplete = false
    }

    private let state: Lock<State>

    init(connection: OpaquePointer, loop: PollingLoop) {
        state = Lock(State(connection: ConnectionHandle(pointer: connection), loop: loop))
    }

    /// Keeps `response` and resumes the connection, unless a response came first or the
    /// connection is gone.
    func complete(with response: HTTPResponse) {
        state.withLock { state in
            guard !state.isComplete, let connection = state.connection else { return }
            state.isComplete = true
            state.response = response
            state.loop?.resume(connection.pointer)
        }
    }

    /// The response, once complete, and from then on nothing resumes the connection (on the
    /// polling thread, after the resume).
    func takeResponse() -> HTTPResponse? {
        state.withLock { state in
            defer {
                state.response = nil
                state.connection = nil
                state.loop = nil
            }
            return state.response
        }
    }

    /// The request ended (the connection closed): nothing may resume it any more.
    func forget() {
        state.withLock { state in
            state.connection = nil
            state.loop = nil
        }
    }
}
