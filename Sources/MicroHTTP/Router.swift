/// Maps a method and a path to a handler; answers unknown paths with 404 and known paths with any
/// other method — a standard one or not — with 405 and an `Allow` header (for what the fallback
/// serves, `GET, HEAD`), both as JSON errors.
///
/// Patterns are matched segment by segment against the *decoded* path; a segment written `{name}`
/// matches any one non-empty segment and is handed to the handler in `request.parameters`.
/// Every `GET` route also answers `HEAD`.
public struct Router: Sendable {
    /// A request handler. It runs on the server's polling thread, so it must not block.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    private enum Segment: Sendable {
        case literal(String)
        case parameter(String)
    }

    /// Checks a request from its head alone, before any body is read; returns an error response to
    /// refuse it at once (so a 404 or 415 is answered before a body could be judged too large), or
    /// `nil` to go on.
    public typealias Preflight = @Sendable (inout HTTPRequest) -> HTTPResponse?

    /// A preflight that finds what its handler needs (a session, a room and who asks): the
    /// handler is given it, typed, after the body is read.
    public typealias Finder<Found: Sendable> = @Sendable (inout HTTPRequest) -> Lookup<Found>

    private struct Route: Sendable {
        let index: Int
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let preflight: Preflight?
        let handler: Handler
    }

    private var routes: [Route] = []
    private var fallback: Handler?

    /// Creates an empty router.
    public init() {}

    /// Adds a route for `method` and `pattern` (e.g. `/api/sessions/{sid}`), with an optional check
    /// of the request head that runs before its body is read.
    public mutating func add(
        _ method: HTTPMethod,
        _ pattern: String,
        preflight: Preflight? = nil,
        _ handler: @escaping Handler
    ) {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part -> Segment in
            if part.hasPrefix("{") && part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
        routes.append(
            Route(
                index: routes.count,
                method: method,
                pattern: pattern,
                segments: segments,
                preflight: preflight,
                handler: handler
            )
        )
    }

    /// Adds a route whose preflight `lookup` finds, from the request's head, what `handler` works
    /// on: the handler runs only with what was found, and a refusal is answered before any body
    /// is read. The value travels on the request (``HTTPRequest/found``), where only the router
    /// reads and writes it, so the handler's argument is always the lookup's own.
    public mutating func add<Found: Sendable>(
        _ method: HTTPMethod,
        _ pattern: String,
        lookup: @escaping Finder<Found>,
        _ handler: @escaping @Sendable (HTTPRequest, Found) -> HTTPResponse
    ) {
        let preflight: Preflight = { request in
            switch lookup(&request) {
            case .proceed(let found):
                request.found = found
                return nil
            case .refused(let response):
                return response
            }
        }
        add(method, pattern, preflight: preflight) { request in
            // The router runs a route's preflight before its handler, on the same request.
            guard let found = request.found as? Found else { return Self.lookupMissing }
            return handler(request, found)
        }
    }

    /// Unreachable while the router alone sets ``HTTPRequest/found``: answered, never a trap.
    private static let lookupMissing = HTTPResponse.error(
        status: 500,
        code: "internal_error",
        message: "This route's lookup did not run; please report it."
    )

    /// Every route's method and pattern, in the order added (for documentation checks).
    public var registeredRoutes: [(method: HTTPMethod, pattern: String)] {
        routes.map { ($0.method, $0.pattern) }
    }

    /// Sets the handler for `GET`/`HEAD` requests that match no route (static files, typically).
    public mutating func setFallback(_ handler: @escaping Handler) {
        fallback = handler
    }

    /// Answers `request`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if let index = request.resolvedRoute {
            // Resolved already by ``preflight(resolving:)`` on the same request.
            if index >= 0 { return routes[index].handler(request) }
            return fallback?(request) ?? Self.notFound(request.rawPath)
        }
        switch resolve(request) {
        case .failure(let error): return error.response
        case .success(let (route, routed)):
            if let route {
                var routed = routed
                return route.preflight?(&routed) ?? route.handler(routed)
            }
            return fallback?(routed) ?? Self.notFound(routed.rawPath)
        }
    }

    /// Checks `request` from its head alone: 404/405 for unknown routes and methods, then the
    /// route's own preflight. `nil` means "read the body and call ``respond(to:)``".
    public func preflight(_ request: HTTPRequest) -> HTTPResponse? {
        var request = request
        return preflight(resolving: &request)
    }

    /// Like ``preflight(_:)``, and records the route found (and its path parameters) in `request`,
    /// so that ``respond(to:)`` on the same request does not look it up again.
    public func preflight(resolving request: inout HTTPRequest) -> HTTPResponse? {
        switch resolve(request) {
        case .failure(let error):
            return error.response
        case .success(let (route, routed)):
            var routed = routed
            let refusal = route?.preflight?(&routed)
            request.parameters = routed.parameters
            request.found = routed.found
            request.resolvedRoute = route.map(\.index) ?? -1
            return refusal
        }
    }

    /// Finds the route for `request` (`nil` route: the fallback serves it), or the error response.
    private func resolve(_ request: HTTPRequest) -> Result<(Route?, HTTPRequest), ErrorResponse> {
        guard let path = PathDecoding.decode(request.rawPath) else {
            return .failure(
                ErrorResponse(
                    .error(
                        status: 400,
                        code: "invalid_path",
                        message: "The request path is not valid percent-encoded UTF-8."
                    )
                )
            )
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let lookupMethod = request.method == .head ? HTTPMethod.get : request.method
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = match(route.segments, parts) else { continue }
            if route.method == lookupMethod {
                var routed = request
                routed.parameters = parameters
                return .success((route, routed))
            }
            allowed.append(route.method)
        }
        if !allowed.isEmpty {
            if allowed.contains(.get) { allowed.append(.head) }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var response = HTTPResponse.error(
                status: 405,
                code: "method_not_allowed",
                message: "\(request.method) is not allowed here; use \(list)."
            )
            response.addHeader("Allow", list)
            return .failure(ErrorResponse(response))
        }
        if fallback != nil {
            if lookupMethod == .get { return .success((nil, request)) }
            // What the fallback serves (static files) is read-only.
            var response = HTTPResponse.error(
                status: 405,
                code: "method_not_allowed",
                message: "\(request.method) is not allowed here; use GET, HEAD."
            )
            response.addHeader("Allow", "GET, HEAD")
            return .failure(ErrorResponse(response))
        }
        return .failure(ErrorResponse(Self.notFound(path)))
    }

    private static func notFound(_ path: String) -> HTTPResponse {
        .error(status: 404, code: "not_found", message: "Nothing is at \(path).")
    }

    private func match(_ segments: [Segment], _ parts: [String]) -> [String: String]? {
        guard segments.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal): if literal != part { return nil }
            case .parameter(let name): parameters[name] = part
            }
        }
        return parameters
    }
}

/// An error response as a `Result` failure.
private struct ErrorResponse: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}

/// Percent-decoding of request paths and queries.
enum PathDecoding {
    /// The percent-decoded path, or `nil` when it is not valid UTF-8 after decoding or has a bad escape.
    static func decode(_ raw: String) -> String? {
        raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncodingStrictly() : raw
    }

    /// Decodes a query component: `+` is a space, then percent-decoding.
    static func decodeQueryComponent(_ raw: String) -> String? {
        raw.replacingOccurrences(of: "+", with: " ").removingPercentEncodingStrictly()
    }
}

extension String {
    /// Percent-decoding that rejects malformed escapes and invalid UTF-8 instead of guessing.
    func removingPercentEncodingStrictly() -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
