import Testing

@testable import Scenarios

/// Bytes from outside read as one JSON value, nesting bounded before Foundation's decoder sees them.
@Suite("Reading JSON from outside")
struct JSONReadTests {
    @Test func nestingIsCountedOutsideStringsOnly() {
        #expect(JSONValue.nestingDepth(of: Array(#"[1, {"a": [2]}]"#.utf8)) == 3)
        #expect(JSONValue.nestingDepth(of: Array(#"["[[[{{{", "\"[[["]"#.utf8)) == 1, "brackets in strings, escaped quotes")
        #expect(JSONValue.nestingDepth(of: Array("]]]]".utf8)) == 0)
        #expect(JSONValue.nestingDepth(of: Array("\"abc".utf8)) == 0, "an unterminated string")
    }

    @Test func valuesNestedUpToTheLimitAreReadAndDeeperOnesRefused() throws {
        let deepest = String(repeating: "[", count: JSONValue.maximumDepth) + String(repeating: "]", count: JSONValue.maximumDepth)
        var value = try JSONValue.read(Array(deepest.utf8)).get()
        var depth = 0
        while case .array(let inner) = value {
            depth += 1
            value = inner.first ?? .null
        }
        #expect(depth == JSONValue.maximumDepth)
        for tooDeep in ["[" + deepest + "]", String(repeating: "{\"a\":", count: 500) + "1" + String(repeating: "}", count: 500)] {
            guard case .failure(.tooDeep) = JSONValue.read(Array(tooDeep.utf8)) else {
                Issue.record("nested \(tooDeep.count / 2) deep was not refused")
                continue
            }
        }
        guard case .failure(.invalid) = JSONValue.read(Array("[1,".utf8)) else {
            Issue.record("invalid JSON was not refused")
            return
        }
        #expect(
            try JSONValue.read(Array(#"{"a": [true, null, 2, 2.5, "x"]}"#.utf8)).get()
                == .object(["a": .array([.bool(true), .null, .int(2), .double(2.5), .string("x")])])
        )
    }
}
