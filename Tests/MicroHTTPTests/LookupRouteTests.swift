import Testing

@testable import MicroHTTP

/// A route's lookup finds from the head what its handler works on: a refusal is answered before
/// the handler (and any body), and the handler is given the value found, typed.
@Suite("Routes with a typed lookup")
struct LookupRouteTests {
    /// A refusal the router answers for the lookup.
    struct NoSuchThing: HTTPError {
        let status = 404
        let code = "unknown_thing"
        let message = "No such thing."
    }

    static func router(calls: Counter) -> Router {
        var router = Router()
        let thing: Router.Finder<Int> = { request in
            guard let id = Int(request.parameters["id"] ?? "") else { return .refused(NoSuchThing()) }
            return Lookup.proceed(id * 10).unless(request.header("X-Refuse").map { _ in .text("refused", status: 409) })
        }
        router.add(.get, "/things/{id}", lookup: thing) { _, found in
            calls.increment()
            return .text("thing \(found)")
        }
        return router
    }

    static func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func theHandlerIsGivenWhatTheLookupFound() {
        let calls = Counter()
        let router = Self.router(calls: calls)
        var request = HTTPRequest(method: .get, rawPath: "/things/4")
        #expect(router.preflight(resolving: &request) == nil)
        #expect(Self.text(router.respond(to: request)) == "thing 40")
        // Answered without a preflight first (as a test may call it), the lookup still runs.
        #expect(Self.text(router.respond(to: HTTPRequest(method: .get, rawPath: "/things/5"))) == "thing 50")
        #expect(calls.value == 2)
    }

    @Test func aRefusalIsAnsweredBeforeTheHandler() {
        let calls = Counter()
        let router = Self.router(calls: calls)
        var request = HTTPRequest(method: .get, rawPath: "/things/x")
        let refusal = router.preflight(resolving: &request)
        #expect(refusal?.status == 404 && Self.text(refusal!).contains(#""code":"unknown_thing""#))
        var checked = HTTPRequest(method: .get, rawPath: "/things/4", headers: ["X-Refuse": "1"])
        #expect(router.preflight(resolving: &checked)?.status == 409, "a head check after the lookup refuses too")
        #expect(router.respond(to: HTTPRequest(method: .get, rawPath: "/things/x")).status == 404)
        #expect(calls.value == 0)
    }
}
