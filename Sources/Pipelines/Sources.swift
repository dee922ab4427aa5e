import Reactive

/// The language's sources as the builder makes them: a call looked up in the source table
/// (``LanguageSource/all``, which says which source is which), then each family's signals.
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
        // A name the table lacks may still be a service the server provides under a name of its
        // own; if not, it is refused as a service that is not provided is.
        guard let entry = LanguageSource.byName[name] else { return try service(name, arguments) }
        if let shape = entry.shape { try arguments.expect(shape, usage: entry.usage) }
        return try entry.build(&self, SourceCall(name: name, usage: entry.usage, arguments: arguments, parameters: parameters))
    }

    // MARK: Values

    func just(_ call: SourceCall) -> SignalMaker {
        let value = valueArgument(call.arguments, 0)
        return { scopes in .attempt { () throws(PipelineFailure) in try value(scopes) } }
    }

    func from(_ call: SourceCall) -> SignalMaker {
        let value = valueArgument(call.arguments, 0)
        let range = call.arguments[0].range
        return { scopes in
            .using(value, in: scopes) { values in
                guard case .array(let elements) = values else {
                    return .failure(.closure("`from` needs an array", at: range))
                }
                return .from(elements)
            }
        }
    }

    func failure(_ call: SourceCall) -> SignalMaker {
        let value = valueArgument(call.arguments, 0)
        return { scopes in
            .using(value, in: scopes) { message in
                .failure(PipelineFailure(code: "failure", message: message.text))
            }
        }
    }

    // MARK: Time

    func interval(_ call: SourceCall) throws(BuildError) -> SignalMaker {
        let period = try call.arguments.duration(0)
        let scheduler = self.scheduler
        let elapsed = self.elapsed
        return { _ in Signal<Duration, Never>.interval(period, on: scheduler).map { _ in elapsed() }.promoteError(PipelineFailure.self) }
    }

    func timer(_ call: SourceCall) throws(BuildError) -> SignalMaker {
        let delay = try call.arguments.duration(0, minimum: 0)
        let scheduler = self.scheduler
        let elapsed = self.elapsed
        return { _ in Signal<Duration, Never>.timer(after: delay, on: scheduler).map { _ in elapsed() }.promoteError(PipelineFailure.self) }
    }

    // MARK: Combining

    /// `combineLatest`, `merge`, `zip` and `concat` of the signals given: `combine` makes the
    /// one signal of their signals.
    mutating func combining(_ call: SourceCall, _ combine: @escaping @Sendable ([Stream]) -> Stream) throws(BuildError) -> SignalMaker {
        let arguments = call.arguments
        guard !arguments.list.isEmpty, arguments.list.allSatisfy({ $0.label == nil }) else {
            throw BuildError(
                message: "`\(call.name)` takes signals, at least one, without labels",
                range: arguments.range,
                hint: "write `\(call.usage)`"
            )
        }
        var makers: [SignalMaker] = []
        for argument in arguments.list { makers.append(try compile(argument.value, parameters: call.parameters)) }
        let parts = makers
        return { scopes in combine(parts.map { $0(scopes) }) }
    }

    // MARK: The server's services

    /// The service the server provides as `name`, its arguments checked against its own arity
    /// and usage; a name it does not provide is refused (outside a server, no service is).
    func service(_ name: String, _ arguments: Arguments) throws(BuildError) -> SignalMaker {
        guard let service = services[name] else {
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
