/// An error a request is answered with: its status, a code a program can test, a message for
/// people and, for a refusal that passes, when to try again. It renders itself as the JSON error
/// every route answers (``HTTPResponse/error(status:code:message:retryAfterSeconds:)``), so a
/// handler throws or returns the error, never a status and a code spelled by hand.
///
/// Hummingbird's `HTTPResponseError` is the model: the error carries its own response.
public protocol HTTPError: Error, Sendable {
    /// The HTTP status, 400 to 599.
    var status: Int { get }
    /// The `error.code` of the body: snake case, stable, documented in the API's contract.
    var code: String { get }
    /// The `error.message` of the body: what happened and what to do, for people.
    var message: String { get }
    /// Seconds after which the same request may succeed (`Retry-After`); `nil` for none.
    var retryAfterSeconds: Int? { get }
    /// The response: by default the JSON error of ``status``, ``code`` and ``message``.
    var response: HTTPResponse { get }
}

extension HTTPError {
    /// No `Retry-After` unless the error says so.
    public var retryAfterSeconds: Int? { nil }

    /// The JSON error `{"error":{"code","message"}}` with ``status`` (and `Retry-After`).
    public var response: HTTPResponse {
        .error(status: status, code: code, message: message, retryAfterSeconds: retryAfterSeconds)
    }
}

/// What a route's preflight found for its handler, or the answer that refuses the request before
/// its body is read (``Router/add(_:_:lookup:_:)``).
public enum Lookup<Found: Sendable>: Sendable {
    /// Go on: read the body, then call the handler with what was found.
    case proceed(Found)
    /// Answer this and read no body.
    case refused(HTTPResponse)

    /// Refused with `error`'s response.
    public static func refused(_ error: some HTTPError) -> Lookup { .refused(error.response) }

    /// This, unless `refusal` is not `nil`: a check of the head after the lookup.
    public func unless(_ refusal: HTTPResponse?) -> Lookup {
        guard case .proceed = self, let refusal else { return self }
        return .refused(refusal)
    }

    /// What was found, turned into something else (a room's access into its session).
    public func map<Other: Sendable>(_ transform: (Found) -> Other) -> Lookup<Other> {
        switch self {
        case .proceed(let found): .proceed(transform(found))
        case .refused(let response): .refused(response)
        }
    }
}
