import Foundation
import Testing

@testable import PlaygroundServer

/// The playground's error codes are one vocabulary: each has one status (``ErrorCode/status``),
/// and the API's contract lists every one of them, so a client reading `Public/openapi.json`
/// knows every code it can be answered with.
@Suite("One error vocabulary, in the contract")
struct ErrorVocabularyTests {
    /// The `code` enum of `Public/openapi.json`'s `Error` schema, and the `MisdirectedError` const.
    static func documentedCodes() throws -> Set<String> {
        let data = try Data(contentsOf: URL(fileURLWithPath: APITests.publicFolder).appendingPathComponent("openapi.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func codeSchema(_ name: String) -> [String: Any]? {
            let error = (schemas[name] as? [String: Any])?["properties"] as? [String: Any]
            let fields = (error?["error"] as? [String: Any])?["properties"] as? [String: Any]
            return fields?["code"] as? [String: Any]
        }
        var codes = Set((codeSchema("Error")?["enum"] as? [String]) ?? [])
        if let misdirected = codeSchema("MisdirectedError")?["const"] as? String { codes.insert(misdirected) }
        return codes
    }

    @Test func everyCodeIsInTheContract() throws {
        let documented = try Self.documentedCodes()
        #expect(documented.count > 40, "the contract's codes were read")
        let missing = ErrorCode.allCases.map(\.rawValue).filter { !documented.contains($0) }
        #expect(missing.isEmpty, "codes the server answers but Public/openapi.json does not list: \(missing)")
    }

    @Test func everyStatusIsAnErrorStatus() {
        for code in ErrorCode.allCases {
            #expect((400...599).contains(code.status), "\(code.rawValue) answers \(code.status)")
            let error = PlaygroundError(code, "why")
            #expect(error.response.status == code.status && error.code == code.rawValue)
        }
    }

    @Test func aRefusalThatPassesSaysWhen() {
        let refusal = PlaygroundError(.rateLimited, "slow down", retryAfterSeconds: 7).response
        #expect(refusal.headers.contains { $0.name == "Retry-After" && $0.value == "7" })
        let body = TestRouter.json(refusal)["error"] as? [String: Any]
        #expect(body?["code"] as? String == "rate_limited" && body?["message"] as? String == "slow down")
    }
}
