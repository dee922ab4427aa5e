import Reactive

extension Builder {
    /// The signal of a source call: `just(v)`, `from([…])`, `empty`, `never`, `failure("…")`,
    /// `interval(1s)`, `timer(after: 2s)`, and `combineLatest`/`merge`/`zip`/`concat` of signals.
    mutating func source(_ name: String, _ arguments: Arguments, parameters: [[String]]) throws(BuildError) -> SignalMaker {
        let isTheStream = streamIsOneSource
        streamIsOneSource = false  // the sources of its arguments are inside it
        let maker = try unreportedSource(name, arguments, parameters: parameters)
        // Each call of a source inside a stream is a subscription of its own — a search cancelled
        // by a newer query is one disposed before its answer, `catch`'s replacement one made at
        // the error — reported as `stream·source`: its start, its end and how it ended, not its
        // values, which the stream's rows carry already.
        guard !isTheStream, let owner = sourceOwner else { return maker }
        let (probe, reported) = (self.probe, "\(owner)·\(name)")
        if !reportedSources[owner, default: []].contains(reported) { reportedSources[owner, default: []].append(reported) }
        return { scopes in probe.reporting(maker(scopes), as: reported, values: false) }
    }

    private mutating func unreportedSource(_ name: String, _ arguments: Arguments, parameters: [[String]]) throws(BuildError) -> SignalMaker {
        switch name {
        case "just":
            try arguments.expect([nil], usage: "just(1)")
            let value = valueArgument(arguments, 0)
            return { scopes in .attempt { () throws(PipelineFailure) in try value(scopes) } }
        case "from":
            try arguments.expect([nil], usage: "from([1, 2, 3])")
            let value = valueArgument(arguments, 0)
            let range = arguments[0].range
            return { scopes in
                .using(value, in: scopes) { values in
                    guard case .array(let elements) = values else {
                        return .failure(.closure("`from` needs an array", at: range))
                    }
                    return .from(elements)
                }
            }
        case "empty":
            try arguments.expect([], usage: "empty")
            return { _ in .empty }
        case "never":
            try arguments.expect([], usage: "never")
            return { _ in .never }
        case "failure":
            try arguments.expect([nil], usage: "failure(\"message\")")
            let value = valueArgument(arguments, 0)
            return { scopes in
                .using(value, in: scopes) { message in
                    .failure(PipelineFailure(code: "failure", message: message.text))
                }
            }
        case "interval":
            try arguments.expect([nil], usage: "interval(1s)")
            let period = try arguments.duration(0)
            let scheduler = self.scheduler
            let elapsed = self.elapsed
            return { _ in Signal<Duration, Never>.interval(period, on: scheduler).map { _ in elapsed() }.promoteError(PipelineFailure.self) }
        case "timer":
            try arguments.expect(["after"], usage: "timer(after: 2s)")
            let delay = try arguments.duration(0, minimum: 0)
            let scheduler = self.scheduler
            let elapsed = self.elapsed
            return { _ in Signal<Duration, Never>.timer(after: delay, on: scheduler).map { _ in elapsed() }.promoteError(PipelineFailure.self) }
        case "marbles":
            return try marbles(arguments)
        case "combineLatest", "merge", "zip", "concat":
            guard !arguments.list.isEmpty, arguments.list.allSatisfy({ $0.label == nil }) else {
                throw BuildError(
                    message: "`\(name)` takes signals, at least one, without labels",
                    range: arguments.range,
                    hint: "write `\(name)(a, b)`"
                )
            }
            var makers: [SignalMaker] = []
            for argument in arguments.list { makers.append(try compile(argument.value, parameters: parameters)) }
            let parts = makers
            switch name {
            case "combineLatest": return { scopes in Signal.combineLatest(parts.map { $0(scopes) }).map(Value.array) }
            case "zip": return { scopes in Signal.zip(parts.map { $0(scopes) }).map(Value.array) }
            case "merge": return { scopes in Signal.merge(parts.map { $0(scopes) }) }
            default: return { scopes in Signal.concat(parts.map { $0(scopes) }) }
            }
        default:
            guard let service = services[name] else {
                if name == "command" {
                    throw BuildError(
                        message: "a command is defined on a line of its own",
                        range: arguments.range,
                        hint: "write `c = command { … }.execute(on: trigger)`"
                    )
                }
                throw BuildError(message: "`\(name)` is not available here: the server provides it", range: arguments.range)
            }
            try arguments.expect(Array(repeating: nil, count: service.arity), usage: service.usage)
            let values = (0..<service.arity).map { valueArgument(arguments, $0) }
            return { scopes in
                do throws(PipelineFailure) {
                    var evaluated: [Value] = []
                    for value in values { evaluated.append(try value(scopes)) }
                    return try service.call(evaluated)
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}
