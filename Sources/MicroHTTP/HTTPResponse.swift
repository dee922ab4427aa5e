import CMicroHTTPD
import Dispatch
import Foundation
import Locking

/// What the application answers to a request.
public struct HTTPResponse: Sendable {
    /// What the response carries after its head.
    public enum Body: Sendable {
        /// A complete body.
        case bytes([UInt8])
        /// A Server-Sent-Events stream. `open` runs once the stream exists and before the response
        /// head is sent, so nothing it sends is lost; it does not run for `HEAD` requests.
        case eventStream(open: @Sendable (EventStream) -> Void)
        /// A complete response built once and served many times (a cached static file): its
        /// status, headers and body are those of the ``PreparedResponse``.
        case prepared(PreparedResponse)
        /// A response computed elsewhere: `start` runs on the polling thread and must hand the work
        /// to another thread, which calls `respond` once with the real response (not itself
        /// deferred). Meanwhile the connection is suspended and the polling thread serves others;
        /// the status and headers of this placeholder are not used.
        case deferred(start: @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
    }

    /// The status code.
    public var status: Int
    /// Headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Adds a header.
    public mutating func addHeader(_ name: String, _ value: String) {
        headers.append((name, value))
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: .bytes(Array(text.utf8))
        )
    }

    /// An `application/json` response with `value` encoded.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        let data = (try? jsonEncoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/json")],
            body: .bytes(Array(data))
        )
    }

    /// The JSON error every part of the API answers with: `{"error":{"code","message"}}`; with
    /// `retryAfterSeconds`, a refusal that says when to try again (`Retry-After`).
    public static func error(status: Int, code: String, message: String, retryAfterSeconds: Int? = nil) -> HTTPResponse {
        var response = json(ErrorBody(error: .init(code: code, message: message)), status: status)
        if let retryAfterSeconds { response.addHeader("Retry-After", "\(retryAfterSeconds)") }
        return response
    }

    /// A response computed on another thread (see ``Body/deferred(start:)``): for work too long
    /// for the polling thread, which every connection shares.
    public static func deferred(_ start: @escaping @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void) -> HTTPResponse {
        HTTPResponse(status: 200, body: .deferred(start: start))
    }

    /// This response, or for a deferred one the response it completes with, waited for: for
    /// tests and tools that call a handler directly (never on a polling thread).
    public func resolved() -> HTTPResponse {
        guard case .deferred(let start) = body else { return self }
        let done = DispatchSemaphore(value: 0)
        let result = Lock<HTTPResponse?>(nil)
        start { response in
            result.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!.resolved()
    }

    /// A Server-Sent-Events response; `open` receives the stream (see ``Body/eventStream(open:)``).
    public static func eventStream(open: @escaping @Sendable (EventStream) -> Void) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/event-stream"),
                ("Cache-Control", "no-cache"),
                ("X-Accel-Buffering", "no"),
            ],
            body: .eventStream(open: open)
        )
    }
}

/// A response built once — headers and body — and served any number of times without copying: the
/// static-file cache keeps one per file. The libmicrohttpd response behind it is made on first use
/// (with the server's default headers) and released with it.
public final class PreparedResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The headers, in order.
    public let headers: [(name: String, value: String)]
    /// The body.
    public let body: [UInt8]
    private let native = Lock<ResponseHandle?>(nil)

    /// Prepares a response.
    public init(status: Int = 200, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// As an ``HTTPResponse`` to return from a handler.
    public var response: HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: .prepared(self))
    }

    /// The libmicrohttpd response, made on first use. A prepared response is meant for one server:
    /// the default headers of the first server to serve it are baked in.
    func handle(defaultHeaders: [(name: String, value: String)]) -> ResponseHandle {
        native.withLock { native in
            if let native { return native }
            let pointer = body.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count,
                    UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                    .RESPMEM_MUST_COPY
                )!
            }
            for (name, value) in MicroHTTP.headers(headers, over: defaultHeaders) { MHD_add_response_header(pointer, name, value) }
            let handle = ResponseHandle(pointer: pointer)
            native = handle
            return handle
        }
    }

    deinit {
        // Only our reference: connections still sending it hold their own.
        native.withLock { $0.map { MHD_destroy_response($0.pointer) } }
    }
}

/// A libmicrohttpd response pointer; libmicrohttpd reference-counts responses and may queue one
/// on many connections.
struct ResponseHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

private struct ErrorBody: Encodable {
    struct Detail: Encodable {
        let code: String
        let message: String
    }
    let error: Detail
}

private let jsonEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}()
