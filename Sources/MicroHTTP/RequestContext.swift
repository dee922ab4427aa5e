import Dispatch
import Locking

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
    /// The response being computed on another thread while the connection is suspended.
    var deferred: DeferredResponse?
    /// Whether the client speaks HTTP/1.0, which has no chunked encoding.
    let isHTTP10: Bool

    init(head: HTTPRequest, isHTTP10: Bool) {
        self.head = head
        self.isHTTP10 = isHTTP10
    }

    /// Drops what the access log does not need.
    func releaseHead() {
        head = HTTPRequest(method: head.method, rawPath: head.rawPath, clientAddress: head.clientAddress)
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
