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
    /// The request headers, with lower-cased names. Repeated headers are joined with `, `.
    public var headers: [String: String]
    /// The request body (empty when there was none).
    public var body: [UInt8]
    /// The client's address as text (`127.0.0.1`, `::1`), or empty if unknown.
    public var clientAddress: String
    /// Path parameters filled in by the router (`{id}` in a route's pattern).
    public var parameters: [String: String] = [:]

    /// Creates a request; the server does this for every request it receives.
    public init(
        method: HTTPMethod, rawPath: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String = ""
    ) {
        self.method = method
        self.rawPath = rawPath
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }

    /// The value of the header `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
