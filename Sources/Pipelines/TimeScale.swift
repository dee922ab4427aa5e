/// How long a program's story takes to play out: the longest chain of waits an input's value can
/// go through before its effect is over — `query.throttle(0.5s)` then a search of 1 s is 1.5 s.
/// The page opens a session's diagram at a window a few times this wide, so that an input and
/// what it caused are on screen together (docs/API.md, `timeScale`).
///
/// Along a chain the waits add up (`a.delay(1s).throttle(0.5s)`, and a flattening's closure after
/// its input); across the streams an operator reads, the longest counts (`a.merge(with: b)`); a
/// stream read by name brings its own chain. Each duration literal is a wait (`throttle(0.5s)`, `interval(1s)`,
/// `timer(after: 2s)`), a service call (`search(q)`) the services' latency, and a `marbles` row
/// its length in frames.
public enum TimeScale {
    /// The names of sources that answer after the services' latency (the source table's services).
    static let services: Set<String> = Set(LanguageSource.all.filter(\.waitsForTheServices).map(\.name))
    /// The names of sources that last their row's frames (`marbles`).
    static let rows: Set<String> = Set(LanguageSource.all.filter { $0.kind == .marbles }.map(\.name))
    /// A `marbles` row's frame when the call does not give one (docs/PIPELINES.md).
    static let defaultFrameMilliseconds = 100.0

    /// The time scale of `program` in milliseconds, or nil when nothing in it waits.
    public static func milliseconds(of program: Program, serviceLatency: Duration) -> Int? {
        let latency = Double(serviceLatency.components.seconds) * 1000 + Double(serviceLatency.components.attoseconds) / 1e15
        var definitions: [String: Expression] = [:]
        for stream in program.streams where definitions[stream.name] == nil { definitions[stream.name] = stream.expression }
        var known: [String: Double] = [:]

        func stream(_ name: String, _ visiting: Set<String>) -> Double {
            if let time = known[name] { return time }
            guard let expression = definitions[name], !visiting.contains(name) else { return 0 }
            let time = wait(expression, visiting.union([name]))
            known[name] = time
            return time
        }

        func wait(_ expression: Expression, _ visiting: Set<String>) -> Double {
            switch expression {
            case .duration(let milliseconds, _):
                return milliseconds
            case .name(let name, _):
                return stream(name, visiting)
            case .member(let base, _, _):
                return base.map { wait($0, visiting) } ?? 0
            case .call(let callee, let arguments, _):
                let longest = arguments.map { wait($0.value, visiting) }.max() ?? 0
                switch callee {
                case .name(let name, _) where services.contains(name):
                    return longest + latency
                case .name(let name, _) where rows.contains(name):
                    return row(arguments) ?? longest
                case .name(Vocabulary.afterBlock, _):
                    // `after(0.2s) { … }` in a `createSignal` block: its lines wait after it.
                    let delay = arguments.first.map { wait($0.value, visiting) } ?? 0
                    return delay + (arguments.dropFirst().map { wait($0.value, visiting) }.max() ?? 0)
                case .member(let base?, _, _):
                    // An operator's own waits (`throttle(0.5s)`) and its closures' (a flattening's
                    // inner signal) follow its input; the streams it reads besides run alongside.
                    var after = 0.0
                    var alongside = 0.0
                    for argument in arguments {
                        switch argument.value {
                        case .duration, .closure: after = max(after, wait(argument.value, visiting))
                        default: alongside = max(alongside, wait(argument.value, visiting))
                        }
                    }
                    return max(wait(base, visiting) + after, alongside)
                default:
                    return longest
                }
            case .closure(_, let body, _):
                return wait(body, visiting)
            case .block(let lines, _):
                return lines.map { wait($0, visiting) }.max() ?? 0
            case .array(let items, _):
                return items.map { wait($0, visiting) }.max() ?? 0
            case .subscripted(let base, let index, _):
                return max(wait(base, visiting), wait(index, visiting))
            case .unary(_, let operand, _):
                return wait(operand, visiting)
            case .binary(_, let left, let right, _):
                return max(wait(left, visiting), wait(right, visiting))
            case .conditional(let test, let then, let otherwise, _):
                return max(wait(test, visiting), wait(then, visiting), wait(otherwise, visiting))
            case .number, .string, .interpolation, .bool, .null, .dictionary, .parameter:
                return 0
            }
        }

        /// A `marbles("…", frame: 50ms)` row's length in milliseconds.
        func row(_ arguments: [Argument]) -> Double? {
            guard case .string(let text, _) = arguments.first?.value else { return nil }
            var frame = defaultFrameMilliseconds
            if let given = arguments.first(where: { $0.label == "frame" }), case .duration(let milliseconds, _) = given.value {
                frame = milliseconds
            }
            return Double(text.count) * frame
        }

        // A line feeding a subject waits as its source does (`marbles("-a-b|").subscribe(s)`); a
        // connection connected later, as its source does from then (`after(0.5s) { conn.connect() }`).
        let fed = program.feeds.map { wait($0.source, []) }
        let connected = program.connects.map { $0.delayMilliseconds + stream($0.connection, []) }
        let longest = (program.streams.map { stream($0.name, []) } + fed + connected).max() ?? 0
        // Bounded: a literal may be up to an hour (docs/PIPELINES.md), and a chain of them longer.
        guard longest > 0, !longest.isNaN else { return nil }
        return Int(min(longest, 86_400_000))
    }
}
