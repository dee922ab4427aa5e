import Locking
import Reactive

extension Builder {
    /// `upstream.name(arguments)`: the operator's entry of ``LanguageOperator/all`` builds it,
    /// once its arguments have the entry's shape; a name that is none gives the reason.
    mutating func apply(
        _ name: String,
        to upstream: @escaping SignalMaker,
        _ arguments: Arguments,
        parameters: [[String]]
    ) throws(BuildError) -> SignalMaker {
        guard let entry = LanguageOperator.byName[name] else {
            if let unavailable = Self.outsideTheLanguage[name] {
                throw BuildError(message: unavailable.reason, range: arguments.range, hint: unavailable.hint)
            }
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
        if let shape = entry.shape { try arguments.expect(shape, usage: entry.usage) }
        return try entry.build(&self, OperatorCall(name: name, upstream: upstream, arguments: arguments, parameters: parameters))
    }

    // MARK: Transforming and filtering

    /// `map`, and `attemptMap` and `reduceEach`, which are the same here: a closure that fails
    /// fails the stream (`attemptMap`), and one naming several parameters takes an array's
    /// elements (`reduceEach`).
    func map(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let transform = try valueClosure(call.arguments, 0)
        let upstream = call.upstream
        return { scopes in upstream(scopes).attemptMap { value throws(PipelineFailure) in try transform(scopes, [value]) } }
    }

    func filter(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let test = try predicate(call.arguments, 0, of: call.name)
        let upstream = call.upstream
        return { scopes in upstream(scopes).filtering { value throws(PipelineFailure) in try test(scopes, value) } }
    }

    /// `take(3)`, `skip(3)`, `takeLast(3)`, and the windows `take(while:)`, `take(until:)`…
    mutating func takeOrSkip(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let (name, upstream, arguments) = (call.name, call.upstream, call.arguments)
        if name != "takeLast", arguments.list.first?.label != nil {
            return try applyWindow(name, to: upstream, arguments, parameters: call.parameters)
        }
        try arguments.expect([nil], usage: "\(name)(3)")
        let count = try arguments.count(0)
        switch name {
        case "take": return { scopes in upstream(scopes).take(count) }
        case "skip": return { scopes in upstream(scopes).skip(count) }
        default: return { scopes in upstream(scopes).takeLast(count) }
        }
    }

    /// `startWith(v)`, `ignore(v)`, `mapReplace(v)`: a constant, computed at each subscription.
    func constant(_ call: OperatorCall) -> SignalMaker {
        let value = valueArgument(call.arguments, 0)
        let (name, upstream) = (call.name, call.upstream)
        return { scopes in
            .using(value, in: scopes) { constant in
                switch name {
                case "startWith": upstream(scopes).startWith(constant)
                case "ignore": upstream(scopes).ignore(constant)
                default: upstream(scopes).mapReplace(constant)
                }
            }
        }
    }

    /// `distinctUntilChanged()`, `ignoreValues()`, `not()`.
    func unary(_ call: OperatorCall) -> SignalMaker {
        let upstream = call.upstream
        switch call.name {
        case "distinctUntilChanged": return { scopes in upstream(scopes).distinctUntilChanged() }
        case "ignoreValues": return { scopes in upstream(scopes).ignoreValues() }
        default:
            let range = call.arguments.range
            return { scopes in
                upstream(scopes).attemptMap { value throws(PipelineFailure) in
                    guard case .bool(let flag) = value else { throw .closure("`not` needs bools, not \(value.kindName)", at: range) }
                    return .bool(!flag)
                }
            }
        }
    }

    /// `and()`, `or()` of arrays of bools.
    func andOr(_ call: OperatorCall) -> SignalMaker {
        let (name, upstream, range) = (call.name, call.upstream, call.arguments.range)
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
    }

    /// `scan`, `combinePrevious`, `aggregate`: a seed and a combining closure.
    func fold(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let initial = valueArgument(call.arguments, 0)
        let combine = try valueClosure(call.arguments, 1)
        let (name, upstream) = (call.name, call.upstream)
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
    }

    /// `any { }`, `all { }`.
    func anyAll(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let test = try predicate(call.arguments, 0, of: call.name)
        let (name, upstream) = (call.name, call.upstream)
        return { scopes in
            let judged = upstream(scopes).attemptMap { value throws(PipelineFailure) in try test(scopes, value) }
            return (name == "any" ? judged.any { $0 } : judged.all { $0 }).map(Value.bool)
        }
    }

    func collect(_ call: OperatorCall) -> SignalMaker {
        let (upstream, range) = (call.upstream, call.arguments.range)
        let limit = budget.limits.valueBytes
        return { scopes in upstream(scopes).collecting(upTo: limit, at: range) }
    }

    // MARK: Combining and flattening

    /// `merge(with:)`, `combineLatest(with:)`, `zip(with:)`, `sample(trigger)`.
    mutating func combine(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let other = try compile(call.arguments[0], parameters: call.parameters)
        let upstream = call.upstream
        switch call.name {
        case "merge": return { scopes in upstream(scopes).merge(with: other(scopes)) }
        case "combineLatest": return { scopes in upstream(scopes).combineLatest(with: other(scopes)).map { .array([$0, $1]) } }
        case "zip": return { scopes in upstream(scopes).zip(with: other(scopes)).map { .array([$0, $1]) } }
        default: return { scopes in upstream(scopes).sample(other(scopes)) }
        }
    }

    /// `withLatest(from: a, b…)`: each value with the latest of the others.
    mutating func withLatest(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let arguments = call.arguments
        guard !arguments.list.isEmpty, arguments.list.first?.label == "from", arguments.list.dropFirst().allSatisfy({ $0.label == nil }) else {
            throw BuildError(
                message: "`withLatest` takes `from:` and one or more streams",
                range: arguments.range,
                hint: "write `submit.withLatest(from: user, password)`"
            )
        }
        var others: [SignalMaker] = []
        for argument in arguments.list { others.append(try compile(argument.value, parameters: call.parameters)) }
        let (latest, upstream) = (others, call.upstream)
        return { scopes in
            upstream(scopes).withLatest(from: Signal.combineLatest(latest.map { $0(scopes) })).map { value, others in .array([value] + others) }
        }
    }

    mutating func concat(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let other = try compile(call.arguments[0], parameters: call.parameters)
        let upstream = call.upstream
        return { scopes in upstream(scopes).concat(other(scopes)) }
    }

    mutating func then(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let next = try call.arguments.closure(0)
        let maker = try compile(next.body, parameters: call.parameters + [next.parameters])
        let upstream = call.upstream
        return { scopes in upstream(scopes).then { maker(scopes) } }
    }

    /// `flatMap(.strategy) { }`, `flattenMap { }` (merge), `concatMap { }`.
    mutating func flatMap(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let strategy: FlattenStrategy
        let index: Int
        switch call.name {
        case "flatMap":
            strategy = try call.arguments.flattenStrategy(0)
            index = 1
        case "flattenMap":
            (strategy, index) = (.merge, 0)
        default:
            (strategy, index) = (.concat, 0)
        }
        let inner = try signalClosure(call.arguments, index, parameters: call.parameters)
        let upstream = call.upstream
        return { scopes in upstream(scopes).flatMap(strategy) { value in inner(scopes, value) } }
    }

    // MARK: Errors and repetition

    mutating func catchError(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let recovery = try signalClosure(call.arguments, 0, parameters: call.parameters)
        let upstream = call.upstream
        return { scopes in
            upstream(scopes).catch { failure in
                recovery(scopes, .object(["code": .string(failure.code), "message": .string(failure.message)]))
            }
        }
    }

    /// `retry()` for ever, or `retry(3)`.
    func retry(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let upstream = call.upstream
        if call.arguments.list.isEmpty { return { scopes in upstream(scopes).retry() } }
        try call.arguments.expect([nil], usage: "retry(3)")
        let count = try call.arguments.count(0)
        return { scopes in upstream(scopes).retry(count) }
    }

    // MARK: Time

    /// `throttle(0.5s)`, `rateLimit(0.5s)`, `delay(0.5s)`.
    func timed(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let interval = try call.arguments.duration(0)
        let (scheduler, upstream) = (self.scheduler, call.upstream)
        switch call.name {
        case "throttle": return { scopes in upstream(scopes).throttle(interval, on: scheduler) }
        case "rateLimit": return { scopes in upstream(scopes).rateLimit(interval, on: scheduler) }
        default: return { scopes in upstream(scopes).delay(interval, on: scheduler) }
        }
    }

    func timeout(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let interval = try call.arguments.duration(0)
        let (scheduler, upstream) = (self.scheduler, call.upstream)
        let failure = PipelineFailure(
            code: "timeout",
            message: "The stream did not complete within \(Value.format(Double(interval / .milliseconds(1)))) ms."
        )
        return { scopes in upstream(scopes).timeout(after: interval, raising: failure, on: scheduler) }
    }

    func buffer(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let interval = try call.arguments.duration(0)
        let (scheduler, upstream) = (self.scheduler, call.upstream)
        return { scopes in upstream(scopes).buffer(every: interval, on: scheduler).map(Value.array) }
    }

    /// `deliverOn(scheduler)` (RAC `deliverOn:`: each event sent on from the scheduler) and
    /// `subscribeOn(scheduler)` (RAC `subscribeOn:`: the subscription, and so the work it starts,
    /// made on the scheduler) over the program's named schedulers.
    func hop(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let name = try call.arguments.schedulerName(0)
        let (scheduler, upstream) = (name == "background" ? background : self.scheduler, call.upstream)
        if call.name == "deliverOn" { return { scopes in upstream(scopes).deliver(on: scheduler) } }
        return { scopes in upstream(scopes).subscribe(on: scheduler) }
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
