import Testing

@testable import Pipelines

/// The closures' expression language (docs/PIPELINES.md, "Closures"): values, operators, members,
/// and every run-time mistake a failure naming the line and column — never a trap.
@Suite("Pipeline language: closures")
struct EvaluatorTests {
    /// The value of the closure `{ closure }` (its parameters named or `$0`…) with `arguments`.
    func value(_ closure: String, _ arguments: Value...) -> Value? {
        let (program, diagnostics) = Parser.parse("x = f { \(closure) }")
        guard diagnostics.isEmpty, case .call(_, let callArguments, _) = program.streams.first?.expression,
            case .closure(let parameters, let body, _) = callArguments.first?.value
        else { return nil }
        return try? Evaluator(scopes: [.init(parameters: parameters, arguments: arguments)]).evaluate(body)
    }

    func failure(_ closure: String, _ arguments: Value...) -> String? {
        failure(closure, code: "closure_failed", arguments)
    }

    func failure(_ closure: String, code: String, _ arguments: [Value], budget: StepBudget? = nil) -> String? {
        let (program, _) = Parser.parse("x = f { \(closure) }")
        guard case .call(_, let callArguments, _) = program.streams.first?.expression,
            case .closure(let parameters, let body, _) = callArguments.first?.value
        else { return nil }
        do throws(PipelineFailure) {
            _ = try Evaluator(scopes: [.init(parameters: parameters, arguments: arguments)], budget: budget).evaluate(body)
            return nil
        } catch {
            #expect(error.code == code)
            return error.message
        }
    }

    @Test func arithmeticIsOnDoubles() {
        #expect(value("7 / 2") == .number(3.5))
        #expect(value("1 + 2 * 3 - 4 % 3") == .number(6))
        #expect(value("-$0 + 1", .number(2)) == .number(-1))
        #expect(Value.number(3).jsonText == "3" && Value.number(3.5).jsonText == "3.5")
    }

    @Test func comparisonLogicAndConditionals() {
        #expect(value("$0 > 2 && $0 < 5", .number(3)) == .bool(true))
        #expect(value("\"abc\" < \"abd\"") == .bool(true))
        #expect(value("!($0 == nil) ? \"set\" : \"empty\"", .null) == .string("empty"))
        #expect(value("false && $0.count > 0", .number(1)) == .bool(false), "the right side is not evaluated")
        #expect(value("[1, \"a\"] == [1, \"a\"]") == .bool(true))
    }

    @Test func stringsConcatenateAndInterpolate() {
        #expect(value("\"n=\" + $0", .number(2)) == .string("n=2"))
        #expect(
            value("\"\\($0.name): \\($0.tags)\"", .object(["name": .string("a"), "tags": .array([.number(1)])]))
                == .string("a: [1]")
        )
    }

    @Test func membersAndMethodsOfValues() {
        #expect(value("$0.count", .string("héllo")) == .number(5))
        #expect(value("$0.isEmpty", .array([])) == .bool(true))
        #expect(value("$0.first", .array([.number(1), .number(2)])) == .number(1))
        #expect(value("$0.lowercased().hasPrefix(\"sw\")", .string("SWEDISH")) == .bool(true))
        #expect(value("$0.contains(2)", .array([.number(1), .number(2)])) == .bool(true))
        #expect(value("$0[1]", .array([.number(1), .number(2)])) == .number(2))
        #expect(value("$0[\"k\"]", .object(["k": .bool(true)])) == .bool(true))
        #expect(value("$0.missing", .object([:])) == .null, "a missing field is null, as in JSON")
    }

    @Test func namedParametersTakeTheElementsOfAnArray() {
        #expect(value("a, b in a + b", .array([.number(1), .number(2)])) == .number(3))
        #expect(value("pair in pair[0]", .array([.number(1), .number(2)])) == .number(1))
        #expect(value("total, next in total + next", .number(1), .number(2)) == .number(3))
    }

    @Test func runTimeMistakesAreFailuresNamingThePlace() {
        #expect(failure("$0.count", .number(1)) == "line 1, column 11: a number has no `.count`", "at the member")
        #expect(failure("1 / $0", .number(0)) == "line 1, column 9: division by zero")
        #expect(failure("$0[5]", .array([])) == "line 1, column 9: index 5 is out of range for an array of 0")
        #expect(failure("$0[0.5]", .array([.null])) == "line 1, column 9: index 0.5 is out of range for an array of 1")
        #expect(failure("$1", .number(0)) == "line 1, column 9: the closure has no parameter `$1`")
        #expect(failure("$0 ? 1 : 2", .number(0)) == "line 1, column 9: the condition of `? :` is not a bool")
        #expect(failure("$0 - \"a\"", .number(0)) == "line 1, column 9: `-` cannot combine a number and a string")
        #expect(failure("$0 * $0", .number(1e300)) == "line 1, column 9: the result is too large to be a number")
        #expect(failure("query", .number(0))?.hasPrefix("line 1, column 9: `query` is not a value here") == true)
    }

    @Test func valuesCannotGrowWithoutBound() {
        let long = Value.string(String(repeating: "x", count: 40_000))
        #expect(
            failure("$0 + $0", code: "value_too_large", [long])?.hasPrefix("line 1, column 9: the string would be larger than 65536 bytes") == true
        )
        let many = Value.array(Array(repeating: .null, count: 6_000))
        #expect(failure("$0 + $0", many) == "line 1, column 9: the array would have more than 10000 elements")
    }

    /// Sizes are bytes of JSON, checked before a value is made: shared storage, combining marks and
    /// text made from other values cannot slip past.
    @Test func valuesAreBoundedByTheirBytesWhateverTheyShare() {
        let tenKiB = Value.string(String(repeating: "x", count: 10_240))
        // Ten references to one string cost ten strings.
        #expect(failure("[$0, $0, $0, $0, $0, $0, $0]", code: "value_too_large", [tenKiB])?.contains("the array") == true)
        #expect(value("[$0, $0, $0, $0, $0]", tenKiB) != nil)
        // A run of combining marks is one Character, and 2 bytes each.
        let marks = Value.string("e" + String(repeating: "\u{301}", count: 20_000))
        #expect(failure("$0 + $0", code: "value_too_large", [marks]) != nil)
        #expect(failure("\"\\($0)\\($0)\"", code: "value_too_large", [marks]) != nil)
        // An array written into a string is measured before it is written.
        let shared = Value.array(Array(repeating: tenKiB, count: 6))
        #expect(value("$0 + \"x\"", shared) != nil)
        #expect(failure("$0 + \"x\" + $0", code: "value_too_large", [shared]) != nil)
        #expect(failure("[$0] + [$0]", code: "value_too_large", [shared]) != nil)
        #expect(failure("[\"a\": $0, \"b\": $0]", code: "value_too_large", [shared]) != nil)
        #expect(failure("$0 + [$0]", code: "value_too_large", [Value.array([shared])]) != nil)
    }

    /// A closure pays for what it copies and makes, not one step per call: `a + [v]` of a long
    /// array costs its elements, a concatenation its bytes.
    @Test func closuresAreChargedForWhatTheyCopy() {
        let limits = StepBudget.Limits(capacity: 1_000, perSecond: 0)
        let budget = StepBudget(limits) { _ in }
        let elements = Value.array(Array(repeating: .number(1), count: 8_000))
        // `[1]`: 1 element made and 3 bytes measured (2 steps); then `+` measures 16,001 bytes
        // (63 steps) and 3 (1), and copies 8,001 elements (501): 567 steps in all.
        #expect(failure("$0 + [1]", code: "none", [elements], budget: budget) == nil)
        #expect(budget.spend(1_000 - 567) == true)
        #expect(budget.spend(1) == false)
        let short = StepBudget(.init(capacity: 100, perSecond: 0)) { _ in }
        #expect(failure("$0 + [1]", code: "budget_exceeded", [elements], budget: short) != nil)
    }
}
