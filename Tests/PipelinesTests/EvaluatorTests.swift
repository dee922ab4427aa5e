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
        let (program, _) = Parser.parse("x = f { \(closure) }")
        guard case .call(_, let callArguments, _) = program.streams.first?.expression,
            case .closure(let parameters, let body, _) = callArguments.first?.value
        else { return nil }
        do throws(PipelineFailure) {
            _ = try Evaluator(scopes: [.init(parameters: parameters, arguments: arguments)]).evaluate(body)
            return nil
        } catch {
            #expect(error.code == "closure_failed")
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
        let long = Value.string(String(repeating: "x", count: 60_000))
        #expect(failure("$0 + $0", long) == "line 1, column 9: the string would be longer than 100000 characters")
        let many = Value.array(Array(repeating: .null, count: 6_000))
        #expect(failure("$0 + $0", many) == "line 1, column 9: the array would have more than 10000 elements")
    }
}
