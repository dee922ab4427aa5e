import Testing

@testable import MicroHTTP

/// A response's own headers over the server's defaults (`ServerConfiguration.defaultHeaders`).
@Suite("Default headers")
struct HeaderDefaultsTests {
    let defaults: [(name: String, value: String)] = [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY")]

    func names(_ headers: [(name: String, value: String)]) -> [String] {
        headers.map { "\($0.name): \($0.value)" }
    }

    @Test func aResponseWithoutHeadersGetsTheDefaults() {
        #expect(names(headers([], over: defaults)) == ["X-Content-Type-Options: nosniff", "X-Frame-Options: DENY"])
    }

    @Test func ownHeadersComeAfterTheDefaults() {
        #expect(names(headers([("Content-Type", "text/plain")], over: defaults)).last == "Content-Type: text/plain")
        #expect(headers([("Content-Type", "text/plain")], over: defaults).count == 3)
    }

    @Test func anOwnHeaderReplacesTheDefaultOfItsNameInAnyCase() {
        #expect(
            names(headers([("x-frame-options", "SAMEORIGIN")], over: defaults))
                == ["X-Content-Type-Options: nosniff", "x-frame-options: SAMEORIGIN"]
        )
    }

    @Test func anEmptyOwnHeaderRemovesTheDefault() {
        #expect(names(headers([("X-Frame-Options", "")], over: defaults)) == ["X-Content-Type-Options: nosniff"])
    }
}
