extension PipelineLanguage {
    /// The operators `program` calls (`stream.operator(…)`), each once, in the order they are
    /// first written, as the language spells them; a flattening with its strategy, as a lesson
    /// teaches it: `flatMap(.latest)` (RAC's `switchToLatest`), `flatMap(.merge)`. What a course
    /// checks its order against (docs/LESSONS.md, "The course").
    public static func operatorsCalled(in program: Program) -> [String] {
        var called: [String] = []
        func visit(_ expression: Expression) {
            switch expression {
            case .call(let callee, let arguments, _):
                if case .member(let base?, let name, _) = callee, Vocabulary.operators.contains(name) {
                    visit(base)
                    var spelled = name
                    if name == "flatMap", case .member(nil, let strategy, _)? = arguments.first?.value { spelled += "(.\(strategy))" }
                    if !called.contains(spelled) { called.append(spelled) }
                } else {
                    visit(callee)
                }
                for argument in arguments { visit(argument.value) }
            case .member(let base?, _, _): visit(base)
            case .interpolation(let parts, _):
                for case .expression(let inner) in parts { visit(inner) }
            case .array(let items, _):
                for item in items { visit(item) }
            case .dictionary(let entries, _):
                for entry in entries { visit(entry.value) }
            case .subscripted(let base, let index, _):
                visit(base)
                visit(index)
            case .unary(_, let operand, _): visit(operand)
            case .binary(_, let left, let right, _):
                visit(left)
                visit(right)
            case .conditional(let condition, let then, let otherwise, _):
                visit(condition)
                visit(then)
                visit(otherwise)
            case .closure(_, let body, _): visit(body)
            case .block(let statements, _):
                for statement in statements { visit(statement) }
            default: break
            }
        }
        for stream in program.streams { visit(stream.expression) }
        for feed in program.feeds { visit(feed.source) }
        if !program.connects.isEmpty, !called.contains("connect") { called.append("connect") }
        return called
    }

    /// Whether a lesson can say it teaches `name`: an operator or a source of the language, or a
    /// flattening with its strategy (`flatMap(.latest)`), as ``operatorsCalled(in:)`` spells them.
    public static func isTeachable(_ name: String) -> Bool {
        if name.hasPrefix("flatMap(.") && name.hasSuffix(")") {
            return ["merge", "concat", "latest"].contains(name.dropFirst("flatMap(.".count).dropLast())
        }
        return Vocabulary.operators.contains(name) || Vocabulary.sources.contains(name)
    }
}
