/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the wire, e.g. `GET`.
    public let rawValue: String
    /// Creates a method from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// A description for people and logs.
    public var description: String { rawValue }
}

/// A complete HTTP request as the application sees it: head, decoded path, query and body.
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path exactly as the client sent it (still percent-encoded), without the query.
    public var rawPath: String
    /// The query's parameters, percent-decoded (`+` read as a space). Later duplicates win.
    public var query: [String: String]
    /// The request headers as received, in order.
    public var headerFields: [(name: String, value: String)]
    /// The request body (empty when there was none).
    public var body: [UInt8]
    /// The client's address as text (`127.0.0.1`, `::1`), or empty if unknown.
    public var clientAddress: String
    /// Path parameters filled in by the router (`{id}` in a route's pattern).
    public var parameters: [String: String] = [:]
    /// What the route's lookup found (a session, say), handed to its handler so that it is not
    /// looked up twice (and cannot have gone in between). Only the router sets and reads it
    /// (``Router/add(_:_:lookup:_:)``): a handler is given the value, typed.
    var found: (any Sendable)?
    /// The route the router's preflight found (-1: its fallback), so it is not looked up twice.
    var resolvedRoute: Int?

    /// Creates a request; the server does this for every request it receives.
    public init(
        method: HTTPMethod,
        rawPath: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        body: [UInt8] = [],
        clientAddress: String = ""
    ) {
        self.init(
            method: method,
            rawPath: rawPath,
            query: query,
            headerFields: headers.map { ($0.key, $0.value) },
            body: body,
            clientAddress: clientAddress
        )
    }

    /// Creates a request from its header fields as received; the server does this for every request.
    public init(
        method: HTTPMethod,
        rawPath: String,
        query: [String: String] = [:],
        headerFields: [(name: String, value: String)],
        body: [UInt8] = [],
        clientAddress: String = ""
    ) {
        self.method = method
        self.rawPath = rawPath
        self.query = query
        self.headerFields = headerFields
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The value of the header `name` (case-insensitive); repeated headers are joined with `, `.
    /// A linear search: a request has a handful of headers, and building a dictionary for every
    /// request cost more than all the lookups made of it.
    public func header(_ name: String) -> String? {
        var found: String?
        for field in headerFields where field.name.utf8.count == name.utf8.count && equalsIgnoringASCIICase(field.name, name) {
            found = found.map { "\($0), \(field.value)" } ?? field.value
        }
        return found
    }

    /// The headers as a dictionary with lower-cased names (repeats joined with `, `).
    public var headers: [String: String] {
        var headers: [String: String] = [:]
        for field in headerFields {
            let key = field.name.lowercased()
            headers[key] = headers[key].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }
}

private func equalsIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    var left = a.utf8.makeIterator()
    var right = b.utf8.makeIterator()
    while let x = left.next() {
        guard let y = right.next() else { return false }
        if x == y { continue }
        let lower = { (c: UInt8) -> UInt8 in c >= 65 && c <= 90 ? c + 32 : c }
        if lower(x) != lower(y) { return false }
    }
    return right.next() == nil
}
