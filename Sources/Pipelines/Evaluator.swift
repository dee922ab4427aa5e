/// Computes the value of a closure's expression: the small, pure expression language of
/// docs/PIPELINES.md. Nothing here can reach outside the values it is given; every mistake a value
/// can make at run time (`.count` of a number, a division by zero, an index out of range) is a
/// ``PipelineFailure`` naming the line and column, never a trap.
struct Evaluator {
    /// The largest string a computation may make, in characters, and the longest array.
    static let maximumStringLength = 100_000
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
                switch part {
                case .text(let piece): text += piece
                case .expression(let inner): text += try evaluate(inner).text
                }
                try Evaluator.checkLength(text.count, at: range)
            }
            return .string(text)
        case .array(let elements, _):
            var values: [Value] = []
            for element in elements { values.append(try evaluate(element)) }
            return .array(values)
        case .dictionary(let entries, _):
            var fields: [String: Value] = [:]
            for entry in entries { fields[entry.key] = try evaluate(entry.value) }
            return .object(fields)
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
        }
    }

    private func member(_ name: String, of value: Value, at range: SourceRange) throws(PipelineFailure) -> Value {
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
        case ("lowercased", .string(let text), nil) where arguments.isEmpty: return .string(text.lowercased())
        case ("uppercased", .string(let text), nil) where arguments.isEmpty: return .string(text.uppercased())
        case ("contains", .string(let text), .string(let part)?): return .bool(text.contains(part))
        case ("contains", .array(let values), let element?): return .bool(values.contains(element))
        case ("hasPrefix", .string(let text), .string(let part)?): return .bool(text.hasPrefix(part))
        case ("hasSuffix", .string(let text), .string(let part)?): return .bool(text.hasSuffix(part))
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
        case ("==", _, _): return .bool(left == right)
        case ("!=", _, _): return .bool(left != right)
        case ("+", .number(let a), .number(let b)): return try finite(a + b, at: range)
        case ("+", .array(let a), .array(let b)):
            guard a.count + b.count <= Evaluator.maximumArrayCount else {
                throw .closure("the array would have more than \(Evaluator.maximumArrayCount) elements", at: range)
            }
            return .array(a + b)
        case ("+", .string, _), ("+", _, .string):
            let text = left.text + right.text
            try Evaluator.checkLength(text.count, at: range)
            return .string(text)
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
        case ("<", .string(let a), .string(let b)): return .bool(a < b)
        case ("<=", .string(let a), .string(let b)): return .bool(a <= b)
        case (">", .string(let a), .string(let b)): return .bool(a > b)
        case (">=", .string(let a), .string(let b)): return .bool(a >= b)
        default:
            throw .closure("`\(symbol)` cannot combine \(left.kindName) and \(right.kindName)", at: range)
        }
    }

    private func finite(_ number: Double, at range: SourceRange) throws(PipelineFailure) -> Value {
        guard number.isFinite else { throw .closure("the result is too large to be a number", at: range) }
        return .number(number)
    }

    private static func checkLength(_ length: Int, at range: SourceRange) throws(PipelineFailure) {
        guard length <= maximumStringLength else {
            throw .closure("the string would be longer than \(maximumStringLength) characters", at: range)
        }
    }
}
