/// Computes the value of a closure's expression: the small, pure expression language of
/// docs/PIPELINES.md. Nothing here can reach outside the values it is given; every mistake a value
/// can make at run time (`.count` of a number, a division by zero, an index out of range) is a
/// ``PipelineFailure`` naming the line and column, never a trap.
///
/// Every value it makes is measured before it is made (``Value/encodedSize(limit:)``), and what it
/// copies, makes or reads in proportion to a value's size is charged to the program's
/// ``StepBudget``: a closure's cost follows what it does, not how many times it is called.
struct Evaluator {
    /// The longest array a computation may make.
    static let maximumArrayCount = 10_000

    /// The parameters of one closure: by name (`{ a, b in … }`) and by position (`$0`, `$1`…).
    struct Scope: Sendable {
        var named: [String: Value] = [:]
        var positional: [Value] = []

        /// The scope of a closure with `parameters` called with `arguments`. A closure that names
        /// several parameters but gets one array of that many values takes its elements
        /// (`combineLatest(a, b).map { x, y in … }`).
        init(parameters: [String], arguments: [Value]) {
            var arguments = arguments
            if parameters.count > 1, arguments.count == 1, case .array(let elements) = arguments[0],
                elements.count == parameters.count
            {
                arguments = elements
            }
            positional = arguments
            for (name, value) in zip(parameters, arguments) { named[name] = value }
        }
    }

    /// The scopes of the closures being evaluated, innermost last.
    let scopes: [Scope]
    /// What the work is charged to; `nil` charges nothing (tests of the language alone).
    let budget: StepBudget?
    /// The largest value that may be made, in bytes of its JSON.
    let valueBytes: Int

    init(scopes: [Scope], budget: StepBudget? = nil) {
        self.scopes = scopes
        self.budget = budget
        valueBytes = budget?.limits.valueBytes ?? StepBudget.Limits.defaultValueBytes
    }

    func evaluate(_ expression: Expression) throws(PipelineFailure) -> Value {
        switch expression {
        case .number(let value, _): return .number(value)
        case .duration(let milliseconds, _): return .number(milliseconds)
        case .string(let text, _): return .string(text)
        case .bool(let value, _): return .bool(value)
        case .null: return .null
        case .interpolation(let parts, let range):
            var text = ""
            for part in parts {
                let piece: String
                switch part {
                case .text(let literal): piece = literal
                case .expression(let inner): piece = try self.text(of: try evaluate(inner), at: range)
                }
                try checkBytes(text.utf8.count + piece.utf8.count, "the string", at: range)
                text += piece
            }
            try charge(bytes: text.utf8.count)
            return try checked(.string(text), "the string", at: range)
        case .array(let elements, let range):
            var values: [Value] = []
            for element in elements { values.append(try evaluate(element)) }
            try charge(elements: values.count)
            return try checked(.array(values), "the array", at: range)
        case .dictionary(let entries, let range):
            var fields: [String: Value] = [:]
            for entry in entries { fields[entry.key] = try evaluate(entry.value) }
            try charge(elements: fields.count)
            return try checked(.object(fields), "the object", at: range)
        case .name(let name, let range):
            for scope in scopes.reversed() {
                if let value = scope.named[name] { return value }
            }
            throw .closure("`\(name)` is not a value here (a stream's values reach a closure through an operator)", at: range)
        case .parameter(let index, let range):
            guard let scope = scopes.last, index < scope.positional.count else {
                throw .closure("the closure has no parameter `$\(index)`", at: range)
            }
            return scope.positional[index]
        case .member(let base, let name, let range):
            guard let base else { throw .closure("`.\(name)` is not a value", at: range) }
            return try member(name, of: try evaluate(base), at: range)
        case .call(let callee, let arguments, let range):
            guard case .member(let base?, let name, _) = callee else {
                throw .closure("only a value's methods can be called here", at: range)
            }
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument.value)) }
            return try method(name, of: try evaluate(base), with: values, at: range)
        case .subscripted(let base, let index, let range):
            return try subscripted(try evaluate(base), by: try evaluate(index), at: range)
        case .unary(let symbol, let operand, let range):
            let value = try evaluate(operand)
            switch (symbol, value) {
            case ("!", .bool(let flag)): return .bool(!flag)
            case ("-", .number(let number)): return .number(-number)
            default: throw .closure("`\(symbol)` cannot be applied to \(value.kindName)", at: range)
            }
        case .binary(let symbol, let left, let right, let range):
            return try binary(symbol, left, right, at: range)
        case .conditional(let condition, let whenTrue, let whenFalse, let range):
            guard case .bool(let flag) = try evaluate(condition) else {
                throw .closure("the condition of `? :` is not a bool", at: range)
            }
            return try evaluate(flag ? whenTrue : whenFalse)
        case .closure(_, _, let range):
            throw .closure("a closure is not a value", at: range)
        case .block(_, let range):
            throw .closure("lines that run one after another are a `createSignal` block's", at: range)
        }
    }

    private func member(_ name: String, of value: Value, at range: SourceRange) throws(PipelineFailure) -> Value {
        if case .string(let text) = value, name == "count" || name == "first" || name == "last" {
            try charge(bytes: text.utf8.count)  // characters are found by reading every byte
        }
        switch (name, value) {
        case ("count", .string(let text)): return .number(Double(text.count))
        case ("count", .array(let values)): return .number(Double(values.count))
        case ("count", .object(let fields)): return .number(Double(fields.count))
        case ("isEmpty", .string(let text)): return .bool(text.isEmpty)
        case ("isEmpty", .array(let values)): return .bool(values.isEmpty)
        case ("isEmpty", .object(let fields)): return .bool(fields.isEmpty)
        case ("first", .array(let values)): return values.first ?? .null
        case ("last", .array(let values)): return values.last ?? .null
        case ("first", .string(let text)): return text.first.map { .string(String($0)) } ?? .null
        case ("last", .string(let text)): return text.last.map { .string(String($0)) } ?? .null
        case (_, .object(let fields)): return fields[name] ?? .null
        default: throw .closure("\(value.kindName) has no `.\(name)`", at: range)
        }
    }

    private func method(_ name: String, of value: Value, with arguments: [Value], at range: SourceRange) throws(PipelineFailure) -> Value {
        let argument = arguments.count == 1 ? arguments[0] : nil
        switch (name, value, argument) {
        case ("lowercased", .string(let text), nil) where arguments.isEmpty:
            try charge(bytes: text.utf8.count)
            return try checked(.string(text.lowercased()), "the string", at: range)  // ß becomes SS: it may grow
        case ("uppercased", .string(let text), nil) where arguments.isEmpty:
            try charge(bytes: text.utf8.count)
            return try checked(.string(text.uppercased()), "the string", at: range)
        case ("contains", .string(let text), .string(let part)?):
            try charge(bytes: text.utf8.count + part.utf8.count)
            return .bool(text.contains(part))
        case ("contains", .array(let values), let element?):
            try charge(bytes: try size(of: value, at: range))
            return .bool(values.contains(element))
        case ("hasPrefix", .string(let text), .string(let part)?):
            try charge(bytes: part.utf8.count)
            return .bool(text.hasPrefix(part))
        case ("hasSuffix", .string(let text), .string(let part)?):
            try charge(bytes: part.utf8.count)
            return .bool(text.hasSuffix(part))
        default:
            let kinds = arguments.map(\.kindName).joined(separator: ", ")
            throw .closure("\(value.kindName) has no method `.\(name)(\(kinds))`", at: range)
        }
    }

    private func subscripted(_ value: Value, by index: Value, at range: SourceRange) throws(PipelineFailure) -> Value {
        switch (value, index) {
        case (.array(let values), .number(let number)):
            guard number.rounded() == number, number >= 0, number < Double(values.count) else {
                throw .closure("index \(Value.format(number)) is out of range for an array of \(values.count)", at: range)
            }
            return values[Int(number)]
        case (.object(let fields), .string(let key)):
            return fields[key] ?? .null
        default:
            throw .closure("\(value.kindName) cannot be indexed by \(index.kindName)", at: range)
        }
    }

    private func binary(
        _ symbol: String,
        _ leftExpression: Expression,
        _ rightExpression: Expression,
        at range: SourceRange
    ) throws(PipelineFailure) -> Value {
        let left = try evaluate(leftExpression)
        // `&&` and `||` look at their right side only when they must.
        if symbol == "&&" || symbol == "||" {
            guard case .bool(let first) = left else { throw .closure("`\(symbol)` needs bools, not \(left.kindName)", at: range) }
            if first == (symbol == "||") { return .bool(first) }
            guard case .bool(let second) = try evaluate(rightExpression) else {
                throw .closure("`\(symbol)` needs bools", at: range)
            }
            return .bool(second)
        }
        let right = try evaluate(rightExpression)
        switch (symbol, left, right) {
        case ("==", _, _), ("!=", _, _):
            try chargeComparison(left, right, at: range)
            return .bool((left == right) == (symbol == "=="))
        case ("+", .number(let a), .number(let b)): return try finite(a + b, at: range)
        case ("+", .array(let a), .array(let b)):
            guard a.count + b.count <= Evaluator.maximumArrayCount else {
                throw .closure("the array would have more than \(Evaluator.maximumArrayCount) elements", at: range)
            }
            // Measured before it is made: `[a, a]` of shared storage is cheap to make, not to write.
            let inner = try size(of: left, at: range) - 2 + size(of: right, at: range) - 2 + (a.isEmpty || b.isEmpty ? 0 : 1)
            try checkBytes(inner, "the array", at: range)
            try charge(elements: a.count + b.count)
            return .array(a + b)
        case ("+", .string, _), ("+", _, .string):
            let (first, second) = (try text(of: left, at: range), try text(of: right, at: range))
            try checkBytes(first.utf8.count + second.utf8.count, "the string", at: range)
            try charge(bytes: first.utf8.count + second.utf8.count)
            return try checked(.string(first + second), "the string", at: range)
        case ("-", .number(let a), .number(let b)): return try finite(a - b, at: range)
        case ("*", .number(let a), .number(let b)): return try finite(a * b, at: range)
        case ("/", .number(let a), .number(let b)):
            guard b != 0 else { throw .closure("division by zero", at: range) }
            return try finite(a / b, at: range)
        case ("%", .number(let a), .number(let b)):
            guard b != 0 else { throw .closure("remainder of a division by zero", at: range) }
            return try finite(a.truncatingRemainder(dividingBy: b), at: range)
        case ("<", .number(let a), .number(let b)): return .bool(a < b)
        case ("<=", .number(let a), .number(let b)): return .bool(a <= b)
        case (">", .number(let a), .number(let b)): return .bool(a > b)
        case (">=", .number(let a), .number(let b)): return .bool(a >= b)
        case (_, .string(let a), .string(let b)) where ["<", "<=", ">", ">="].contains(symbol):
            try chargeComparison(left, right, at: range)
            return .bool(Self.compare(symbol, a, b))
        default:
            throw .closure("`\(symbol)` cannot combine \(left.kindName) and \(right.kindName)", at: range)
        }
    }

    private static func compare(_ symbol: String, _ a: String, _ b: String) -> Bool {
        switch symbol {
        case "<": a < b
        case "<=": a <= b
        case ">": a > b
        default: a >= b
        }
    }

    private func finite(_ number: Double, at range: SourceRange) throws(PipelineFailure) -> Value {
        guard number.isFinite else { throw .closure("the result is too large to be a number", at: range) }
        return .number(number)
    }

    // MARK: Sizes and costs

    /// `value`, once measured within the limit; `what` names it in the failure.
    private func checked(_ value: Value, _ what: String, at range: SourceRange) throws(PipelineFailure) -> Value {
        _ = try size(of: value, at: range, naming: what)
        return value
    }

    /// The bytes of `value` as JSON, the walk charged; `value_too_large` past the limit.
    private func size(of value: Value, at range: SourceRange, naming what: String = "the value") throws(PipelineFailure) -> Int {
        guard let size = value.encodedSize(limit: valueBytes) else {
            try charge(bytes: valueBytes)
            throw .valueTooLarge(what, limit: valueBytes, at: range)
        }
        try charge(bytes: size)
        return size
    }

    /// Fails with `value_too_large` when `bytes` (what a string or array would hold, before its
    /// quotes or brackets) is over the limit: checked before the value is made.
    private func checkBytes(_ bytes: Int, _ what: String, at range: SourceRange) throws(PipelineFailure) {
        guard bytes + 2 <= valueBytes else { throw .valueTooLarge(what, limit: valueBytes, at: range) }
    }

    /// The value as text for `+` and interpolation: a string as it is, anything else as JSON,
    /// measured before it is written out.
    private func text(of value: Value, at range: SourceRange) throws(PipelineFailure) -> String {
        if case .string(let text) = value { return text }
        _ = try size(of: value, at: range, naming: "the string")
        return value.jsonText
    }

    /// Charges comparing two values: in proportion to the smaller (a comparison stops at the first
    /// difference, and never reads past the shorter).
    private func chargeComparison(_ left: Value, _ right: Value, at range: SourceRange) throws(PipelineFailure) {
        switch (left, right) {
        case (.string(let a), .string(let b)): try charge(bytes: min(a.utf8.count, b.utf8.count))
        case (.array, .array), (.object, .object):
            try charge(bytes: min(try size(of: left, at: range), try size(of: right, at: range)))
        default: break
        }
    }

    private func charge(bytes: Int) throws(PipelineFailure) {
        guard let budget, !budget.charge(bytes: bytes) else { return }
        throw .budgetExceeded(.steps, budget.limits)
    }

    private func charge(elements: Int) throws(PipelineFailure) {
        guard let budget, !budget.charge(elements: elements) else { return }
        throw .budgetExceeded(.steps, budget.limits)
    }
}
