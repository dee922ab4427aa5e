import Foundation
import Testing

@testable import Pipelines

/// ``Value/encodedSize(limit:)``: the bytes of a value's JSON, counted without writing it.
@Suite("Value sizes")
struct ValueSizeTests {
    /// The size agrees with the JSON the value is written as, for every kind of value.
    @Test(
        arguments: [
            Value.null, .bool(true), .bool(false), 0, -7, 1_234_567, 0.5, -1e-300, 9_007_199_254_740_993, "", "plain",
            "quote \" backslash \\ newline \n tab \t bell \u{7}", "é", "e\u{301}", "👩‍👩‍👧", "🇸🇪", .array([]), [1, "a", .null],
            ["a": 1, "b": [true, ["c": "d"]]], [[[[]]]],
        ] as [Value]
    )
    func sizeIsTheLengthOfTheJSON(_ value: Value) {
        #expect(value.encodedSize(limit: 1_000) == value.jsonText.utf8.count)
    }

    /// Shared storage is counted as often as it is written: ten references to one string are ten
    /// strings, and each level of nesting multiplies.
    @Test func sharedStorageCountsEveryTime() {
        let string = Value.string(String(repeating: "x", count: 1_000))  // 1,002 bytes
        let ten = Value.array(Array(repeating: string, count: 10))
        #expect(ten.encodedSize(limit: 1_000_000) == 10 * 1_002 + 9 + 2)
        let hundred = Value.array(Array(repeating: ten, count: 10))
        #expect(hundred.encodedSize(limit: 1_000_000) == 10 * (10 * 1_002 + 11) + 9 + 2)
        let object = Value.object(["a": hundred, "b": hundred])
        #expect(object.encodedSize(limit: 1_000_000) == 2 * (hundred.encodedSize(limit: 1_000_000)! + 4) + 1 + 2)
    }

    /// Past its limit the walk stops: a value of 10^12 bytes written out is measured at once.
    @Test func theWalkStopsAtTheLimit() {
        var value = Value.string(String(repeating: "x", count: 1_000))
        for _ in 0..<12 { value = .array(Array(repeating: value, count: 10)) }  // about 10^15 bytes
        let started = ContinuousClock.now
        #expect(value.encodedSize(limit: 65_536) == nil)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    /// Strings are measured in UTF-8 bytes, whatever their clusters: a run of combining marks is
    /// one `Character` but two bytes a mark; emoji sequences and flags are several scalars.
    @Test func stringsAreMeasuredInUTF8Bytes() {
        let marks = "e" + String(repeating: "\u{301}", count: 1_000)
        #expect(marks.count == 1)
        #expect(Value.string(marks).encodedSize(limit: 10_000) == 1 + 2_000 + 2)
        #expect(Value.string(String(repeating: "👩‍👩‍👧", count: 10)).encodedSize(limit: 10_000) == 10 * 18 + 2)
        #expect(Value.string("🇸🇪").encodedSize(limit: 100) == 8 + 2)
        #expect(Value.string(String(repeating: "\u{1}", count: 100)).encodedSize(limit: 10_000) == 600 + 2)
        #expect(Value.string(marks).encodedSize(limit: 2_002) == nil)
    }

    /// Nesting is bounded too: each level is a stack frame wherever a value is walked.
    @Test func nestingDeeperThanTheLimitIsTooLarge() {
        var value = Value.null
        for _ in 0..<Value.maximumDepth { value = .array([value]) }
        #expect(value.encodedSize(limit: 1_000) == 4 + 2 * Value.maximumDepth)
        #expect(Value.array([value]).encodedSize(limit: 1_000) == nil)
    }
}
