import Locking
import Reactive

extension Builder {
    /// `upstream.name(arguments)`.
    mutating func apply(
        _ name: String,
        to upstream: @escaping SignalMaker,
        _ arguments: Arguments,
        parameters: [[String]]
    ) throws(BuildError) -> SignalMaker {
        if name == "take" || name == "skip", arguments.list.first?.label != nil {
            return try applyWindow(name, to: upstream, arguments, parameters: parameters)
        }
        switch name {
        case "map":
            try arguments.expect([nil], usage: "map { $0 * 2 }")
            let transform = try valueClosure(arguments, 0)
            return { scopes in upstream(scopes).attemptMap { value throws(PipelineFailure) in try transform(scopes, [value]) } }
        case "filter":
            try arguments.expect([nil], usage: "filter { $0 > 2 }")
            let test = try predicate(arguments, 0, of: name)
            return { scopes in upstream(scopes).filtering { value throws(PipelineFailure) in try test(scopes, value) } }
        case "take", "skip", "takeLast":
            try arguments.expect([nil], usage: "\(name)(3)")
            let count = try arguments.count(0)
            switch name {
            case "take": return { scopes in upstream(scopes).take(count) }
            case "skip": return { scopes in upstream(scopes).skip(count) }
            default: return { scopes in upstream(scopes).takeLast(count) }
            }
        case "startWith", "ignore", "mapReplace":
            try arguments.expect([nil], usage: "\(name)(0)")
            let value = valueArgument(arguments, 0)
            return { scopes in
                .using(value, in: scopes) { constant in
                    switch name {
                    case "startWith": upstream(scopes).startWith(constant)
                    case "ignore": upstream(scopes).ignore(constant)
                    default: upstream(scopes).mapReplace(constant)
                    }
                }
            }
        case "distinctUntilChanged", "ignoreValues", "not":
            try arguments.expect([], usage: "\(name)()")
            switch name {
            case "distinctUntilChanged": return { scopes in upstream(scopes).distinctUntilChanged() }
            case "ignoreValues": return { scopes in upstream(scopes).ignoreValues() }
            default:
                let range = arguments.range
                return { scopes in
                    upstream(scopes).attemptMap { value throws(PipelineFailure) in
                        guard case .bool(let flag) = value else { throw .closure("`not` needs bools, not \(value.kindName)", at: range) }
                        return .bool(!flag)
                    }
                }
            }
        case "throttle", "rateLimit", "delay":
            try arguments.expect([nil], usage: "\(name)(0.5s)")
            let interval = try arguments.duration(0)
            let scheduler = self.scheduler
            switch name {
            case "throttle": return { scopes in upstream(scopes).throttle(interval, on: scheduler) }
            case "rateLimit": return { scopes in upstream(scopes).rateLimit(interval, on: scheduler) }
            default: return { scopes in upstream(scopes).delay(interval, on: scheduler) }
            }
        case "buffer":
            try arguments.expect(["every"], usage: "buffer(every: 1s)")
            let interval = try arguments.duration(0)
            let scheduler = self.scheduler
            return { scopes in upstream(scopes).buffer(every: interval, on: scheduler).map(Value.array) }
        case "flatMap", "flattenMap", "concatMap":
            let strategy: FlattenStrategy
            let index: Int
            if name == "flatMap" {
                try arguments.expect([nil, nil], usage: "flatMap(.latest) { search($0) }")
                strategy = try arguments.flattenStrategy(0)
                index = 1
            } else {
                try arguments.expect([nil], usage: "\(name) { search($0) }")
                strategy = name == "flattenMap" ? .merge : .concat
                index = 0
            }
            let inner = try signalClosure(arguments, index, parameters: parameters)
            return { scopes in upstream(scopes).flatMap(strategy) { value in inner(scopes, value) } }
        case "merge", "combineLatest", "zip", "sample":
            let label: String? = name == "sample" ? nil : "with"
            try arguments.expect([label], usage: name == "sample" ? "sample(trigger)" : "\(name)(with: other)")
            let other = try compile(arguments[0], parameters: parameters)
            switch name {
            case "merge": return { scopes in upstream(scopes).merge(with: other(scopes)) }
            case "combineLatest": return { scopes in upstream(scopes).combineLatest(with: other(scopes)).map { .array([$0, $1]) } }
            case "zip": return { scopes in upstream(scopes).zip(with: other(scopes)).map { .array([$0, $1]) } }
            default: return { scopes in upstream(scopes).sample(other(scopes)) }
            }
        case "catch":
            try arguments.expect([nil], usage: "catch { error in just(error.message) }")
            let recovery = try signalClosure(arguments, 0, parameters: parameters)
            return { scopes in
                upstream(scopes).catch { failure in
                    recovery(scopes, .object(["code": .string(failure.code), "message": .string(failure.message)]))
                }
            }
        case "retry":
            if arguments.list.isEmpty { return { scopes in upstream(scopes).retry() } }
            try arguments.expect([nil], usage: "retry(3)")
            let count = try arguments.count(0)
            return { scopes in upstream(scopes).retry(count) }
        case "scan", "combinePrevious", "aggregate":
            try arguments.expect([nil, nil], usage: "\(name)(0) { total, value in total + value }")
            let initial = valueArgument(arguments, 0)
            let combine = try valueClosure(arguments, 1)
            return { scopes in
                .using(initial, in: scopes) { seed in
                    let step: @Sendable (Value, Value) throws(PipelineFailure) -> Value = { first, second throws(PipelineFailure) in
                        try combine(scopes, [first, second])
                    }
                    switch name {
                    case "scan": return upstream(scopes).scanning(seed, step)
                    case "aggregate": return upstream(scopes).scanning(seed, step).startWith(seed).takeLast(1)
                    default:
                        return upstream(scopes).combinePrevious(seed) { previous, value in
                            Result { () throws(PipelineFailure) in try step(previous, value) }
                        }.attemptMap { result throws(PipelineFailure) in try result.get() }
                    }
                }
            }
        case "any", "all":
            try arguments.expect([nil], usage: "\(name) { $0 > 2 }")
            let test = try predicate(arguments, 0, of: name)
            return { scopes in
                let judged = upstream(scopes).attemptMap { value throws(PipelineFailure) in try test(scopes, value) }
                return (name == "any" ? judged.any { $0 } : judged.all { $0 }).map(Value.bool)
            }
        case "then":
            try arguments.expect([nil], usage: "then { just(1) }")
            let next = try arguments.closure(0)
            let maker = try compile(next.body, parameters: parameters + [next.parameters])
            return { scopes in upstream(scopes).then { maker(scopes) } }
        case "concat":
            try arguments.expect(["with"], usage: "concat(with: other)")
            let other = try compile(arguments[0], parameters: parameters)
            return { scopes in upstream(scopes).concat(other(scopes)) }
        case "timeout":
            try arguments.expect(["after"], usage: "timeout(after: 2s)")
            let interval = try arguments.duration(0)
            let scheduler = self.scheduler
            let failure = PipelineFailure(
                code: "timeout",
                message: "The stream did not complete within \(Value.format(Double(interval / .milliseconds(1)))) ms."
            )
            return { scopes in upstream(scopes).timeout(after: interval, raising: failure, on: scheduler) }
        case "collect":
            try arguments.expect([], usage: "collect()")
            let range = arguments.range
            let limit = budget.limits.valueBytes
            return { scopes in upstream(scopes).collecting(upTo: limit, at: range) }
        case "and", "or":
            try arguments.expect([], usage: "combineLatest(a, b).\(name)()")
            let range = arguments.range
            return { scopes in
                let flags = upstream(scopes).attemptMap { value throws(PipelineFailure) -> [Bool] in
                    guard case .array(let elements) = value else {
                        throw .closure("`\(name)` needs arrays of bools, not \(value.kindName)", at: range)
                    }
                    var flags: [Bool] = []
                    for element in elements {
                        guard case .bool(let flag) = element else {
                            throw .closure("`\(name)` needs arrays of bools, not of \(element.kindName)", at: range)
                        }
                        flags.append(flag)
                    }
                    return flags
                }
                return (name == "and" ? flags.and() : flags.or()).map(Value.bool)
            }
        case "attemptMap", "reduceEach":
            // One operator here: a closure that fails fails the stream (`attemptMap`), and a closure
            // naming several parameters takes an array's elements (`reduceEach`).
            try arguments.expect([nil], usage: name == "reduceEach" ? "reduceEach { a, b in a + b }" : "attemptMap { $0 * 2 }")
            let transform = try valueClosure(arguments, 0)
            return { scopes in upstream(scopes).attemptMap { value throws(PipelineFailure) in try transform(scopes, [value]) } }
        case "withLatest":
            guard !arguments.list.isEmpty, arguments.list.first?.label == "from", arguments.list.dropFirst().allSatisfy({ $0.label == nil }) else {
                throw BuildError(
                    message: "`withLatest` takes `from:` and one or more streams",
                    range: arguments.range,
                    hint: "write `submit.withLatest(from: user, password)`"
                )
            }
            var others: [SignalMaker] = []
            for argument in arguments.list { others.append(try compile(argument.value, parameters: parameters)) }
            let latest = others
            return { scopes in
                upstream(scopes).withLatest(from: Signal.combineLatest(latest.map { $0(scopes) })).map { value, others in .array([value] + others) }
            }
        default:
            if let maker = try applyEventOperator(name, to: upstream, arguments, parameters: parameters) { return maker }
            if name == "execute" || Self.commandMembers.contains(name) {
                throw BuildError(
                    message: "`\(name)` belongs to a command",
                    range: arguments.range,
                    hint: "define `c = command { … }.execute(on: trigger)`, then read `c.executing`"
                )
            }
            throw BuildError(
                message: "`\(name)` cannot be used on a stream",
                range: arguments.range,
                hint: "docs/PIPELINES.md lists the operators"
            )
        }
    }

    /// `take(while:)`, `take(until:)` (a closure or a stream), `skip(while:)`, `skip(until:)`.
    private mutating func applyWindow(
        _ name: String,
        to upstream: @escaping SignalMaker,
        _ arguments: Arguments,
        parameters: [[String]]
    ) throws(BuildError) -> SignalMaker {
        let label = arguments.list.first?.label ?? ""
        if name == "take", label == "untilReplacement", arguments.list.count == 1 {
            // `take(untilReplacement: stream)`: this stream until the replacement sends anything,
            // then the replacement (RAC `takeUntilReplacement:`).
            let replacement = try compile(arguments[0], parameters: parameters)
            return { scopes in upstream(scopes).take(untilReplacement: replacement(scopes)) }
        }
        guard arguments.list.count == 1, label == "while" || label == "until" else {
            throw BuildError(
                message: "`\(name)` takes a count, `while:` or `until:`\(name == "take" ? " or `untilReplacement:`" : "")",
                range: arguments.range,
                hint: "write `\(name)(3)`, `\(name)(while: { $0 > 0 })` or `\(name)(until: { $0 == 0 })`"
            )
        }
        var isClosure = false
        if case .closure = arguments[0] { isClosure = true }
        if name == "take", label == "until", !isClosure {
            // `take(until: stream)`: until the stream sends or completes (RAC `takeUntil:`).
            let trigger = try compile(arguments[0], parameters: parameters)
            return { scopes in upstream(scopes).take(until: trigger(scopes)) }
        }
        let test = try predicate(arguments, 0, of: name)
        // A failing test fails the stage: the value and the test's verdict travel together.
        return { scopes in
            let judged = upstream(scopes).attemptMap { value throws(PipelineFailure) in
                Value.array([value, .bool(try test(scopes, value))])
            }
            let verdict: @Sendable (Value) -> Bool = { pair in
                if case .array(let parts) = pair, parts.count == 2, case .bool(let flag) = parts[1] { return flag }
                return false
            }
            let unpacked: @Sendable (Value) -> Value = { pair in
                if case .array(let parts) = pair, let first = parts.first { return first }
                return pair
            }
            switch (name, label) {
            case ("take", "while"): return judged.take(while: verdict).map(unpacked)
            case ("take", _): return judged.take(until: verdict).map(unpacked)
            case ("skip", "while"): return judged.skip(while: verdict).map(unpacked)
            default: return judged.skip(until: verdict).map(unpacked)
            }
        }
    }

    /// A closure that must give a bool.
    private func predicate(
        _ arguments: Arguments,
        _ index: Int,
        of name: String
    )
        throws(BuildError) -> @Sendable ([Evaluator.Scope], Value) throws(PipelineFailure) -> Bool
    {
        let closure = try valueClosure(arguments, index)
        let range = arguments[index].range
        return { scopes, value throws(PipelineFailure) in
            guard case .bool(let flag) = try closure(scopes, [value]) else {
                throw .closure("`\(name)`'s closure must give a bool", at: range)
            }
            return flag
        }
    }
}

extension Signal where Value == Pipelines.Value, Failure == PipelineFailure {
    /// The signal `make` gives for a value computed in `scopes` when it is subscribed (an argument
    /// that may read closure parameters); a failure to compute it fails the signal.
    static func using(
        _ compute: @escaping @Sendable ([Evaluator.Scope]) throws(PipelineFailure) -> Pipelines.Value,
        in scopes: [Evaluator.Scope],
        _ make: @escaping @Sendable (Pipelines.Value) -> Signal
    ) -> Signal {
        .deferred {
            do throws(PipelineFailure) {
                return make(try compute(scopes))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `filter` with a test that may fail: the failure ends the stream.
    func filtering(_ test: @escaping @Sendable (Pipelines.Value) throws(PipelineFailure) -> Bool) -> Signal {
        attemptMap { value throws(PipelineFailure) in try test(value) ? value : nil }
            .filter { $0 != nil }.map { $0! }
    }

    /// `collect()`: every value, sent as one array when the signal completes (RAC `collect`). The
    /// array grows in place, its size in bytes kept as it grows: past ``Evaluator/maximumArrayCount``
    /// values or `limit` bytes the stream fails, before the array is made.
    func collecting(upTo limit: Int, at range: SourceRange) -> Signal {
        Signal { subscriber in
            let collected = Lock<(values: [Pipelines.Value], bytes: Int)>(([], 2))
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        let failure = collected.withLock { collected -> PipelineFailure? in
                            guard collected.values.count < Evaluator.maximumArrayCount else {
                                return .closure("`collect` keeps at most \(Evaluator.maximumArrayCount) values", at: range)
                            }
                            let separator = collected.values.isEmpty ? 0 : 1
                            guard let size = value.encodedSize(limit: limit - collected.bytes - separator) else {
                                return .valueTooLarge("the array `collect` makes", limit: limit, at: range)
                            }
                            collected.bytes += size + separator
                            collected.values.append(value)
                            return nil
                        }
                        if let failure { subscriber.send(.error(failure)) }
                    case .completed:
                        let values = collected.withLock { collected in
                            defer { collected.values = [] }
                            return collected.values
                        }
                        subscriber.send(.next(.array(values)))
                        subscriber.send(.completed)
                    case .error:
                        subscriber.send(event)
                    }
                },
                for: subscriber
            )
        }
    }

    /// `scan` with a combination that may fail: the failure ends the stream.
    func scanning(
        _ seed: Pipelines.Value,
        _ combine: @escaping @Sendable (Pipelines.Value, Pipelines.Value) throws(PipelineFailure) -> Pipelines.Value
    ) -> Signal {
        scan(Result<Pipelines.Value, PipelineFailure>.success(seed)) { total, value in
            total.flatMap { total in Result { () throws(PipelineFailure) in try combine(total, value) } }
        }.attemptMap { result throws(PipelineFailure) in try result.get() }
    }
}
