/// Finds the tests that can never pass or fail: a closure given to an operator that must give a
/// bool (`filter`, `any`, `take(while:)`… — the table's ``LanguageOperator/predicates``) whose body
/// is plainly something else — a number, a string, an array, an object or `null`, as a literal,
/// an arithmetic expression (`$0 % 2`) or a `? :` of such. The run would fail at the test's first
/// value; the checker says so before it runs. A warning, not an error: a stream that never sends
/// a value never runs its test, and the program runs as written (the failure is part of what a
/// learner can watch). Conservative by construction: a name, a parameter, a member, a call, a
/// subscript, a comparison or a logical operator may give a bool, and is never flagged.
struct PredicateCheck {
    /// For each operator with tests, the labels of its arguments that are tests.
    static let predicates: [String: Set<String?>] = Dictionary(
        uniqueKeysWithValues: LanguageOperator.all.filter { !$0.predicates.isEmpty }.map { ($0.name, $0.predicates) }
    )

    let program: Program

    /// A warning for each test closure whose body is plainly not a bool, at the body.
    func warnings() -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for stream in program.streams {
            var pending = [stream.expression]
            while let next = pending.popLast() {
                pending.append(contentsOf: next.subexpressions)
                guard case .call(.member(_?, let name, _), let arguments, _) = next, let labels = Self.predicates[name] else { continue }
                for argument in arguments where labels.contains(argument.label) {
                    guard case .closure(_, let body, _) = argument.value, let kind = Self.kind(of: body) else { continue }
                    warnings.append(Self.warning(name, argument.label, gives: kind, body: body))
                }
            }
        }
        return warnings
    }

    private static func warning(_ name: String, _ label: String?, gives kind: String, body: Expression) -> Diagnostic {
        let hint: String
        if let text = text(of: body), isArithmetic(body) {
            hint = "compare it, so that it gives true or false: `\(text) == 0`"
        } else {
            let example = label.map { "\(name)(\($0): { $0 > 2 })" } ?? "\(name) { $0 > 2 }"
            hint = "a test gives true or false: compare the value, as in `\(example)`"
        }
        return Diagnostic(
            .warning,
            "`\(name)`'s closure must give a bool, and this one gives \(kind): the stream fails at its first value",
            at: body.range,
            hint: hint
        )
    }

    /// What `expression` plainly gives when it is never a bool ("a number"), or `nil` when it
    /// may be one (or this check cannot tell).
    static func kind(of expression: Expression) -> String? {
        switch expression {
        case .number, .duration: "a number"
        case .string, .interpolation: "a string"
        case .array: "an array"
        case .dictionary: "an object"
        case .null: "null"
        case .unary("-", _, _): "a number"
        case .binary("-", _, _, _), .binary("*", _, _, _), .binary("/", _, _, _), .binary("%", _, _, _): "a number"
        case .binary("+", let left, let right, _):
            // `+` adds numbers, joins strings (a string with anything) and arrays: never a bool.
            switch (kind(of: left), kind(of: right)) {
            case ("a string", _), (_, "a string"): "a string"
            case ("a number", "a number"): "a number"
            case ("an array", "an array"): "an array"
            default: "a number, a string or an array"
            }
        case .conditional(_, let whenTrue, let whenFalse, _):
            kind(of: whenTrue).flatMap { first in kind(of: whenFalse).map { first == $0 ? first : "\(first) or \($0)" } }
        default: nil
        }
    }

    private static func isArithmetic(_ expression: Expression) -> Bool {
        switch expression {
        case .binary(let symbol, _, _, _): ["+", "-", "*", "/", "%"].contains(symbol) && kind(of: expression) == "a number"
        case .unary("-", _, _): true
        default: false
        }
    }

    /// How tightly an arithmetic operator binds (Swift's precedence), for writing its operands back.
    private static let precedence: [String: Int] = ["+": 1, "-": 1, "*": 2, "/": 2, "%": 2]

    /// A short arithmetic expression written back as a program would write it (`$0 % 2`), for a
    /// hint; `nil` for anything else, or anything longer than 40 characters.
    static func text(of expression: Expression) -> String? {
        let written: String?
        switch expression {
        case .number(let number, _): written = Value.format(number)
        case .parameter(let index, _): written = "$\(index)"
        case .name(let name, _): written = name
        case .member(let base?, let name, _): written = text(of: base).map { "\($0).\(name)" }
        case .unary("-", let operand, _): written = text(of: operand).map { "-\($0)" }
        case .binary(let symbol, let left, let right, _):
            guard let binding = precedence[symbol], let first = operand(left, binding, isRight: false),
                let second = operand(right, binding, isRight: true)
            else { return nil }
            written = "\(first) \(symbol) \(second)"
        default: written = nil
        }
        return written.flatMap { $0.count <= 40 ? $0 : nil }
    }

    /// An operand of an operator binding `binding` tightly, in brackets where it binds less tightly
    /// (or as tightly, on the right: `a - (b - c)`).
    private static func operand(_ expression: Expression, _ binding: Int, isRight: Bool) -> String? {
        guard let written = text(of: expression) else { return nil }
        if case .binary(let symbol, _, _, _) = expression, let inner = precedence[symbol], inner < binding || (isRight && inner == binding) {
            return "(\(written))"
        }
        return written
    }
}
