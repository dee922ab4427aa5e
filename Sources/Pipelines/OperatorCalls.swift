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
        let spelling = LanguageOperator.racSpellings[name]
        guard let entry = LanguageOperator.byName[spelling?.operator ?? name] else {
            if let unavailable = Self.outsideTheLanguage[name] {
                throw BuildError(message: unavailable.reason, range: arguments.range, hint: unavailable.hint)
            }
            if Self.connectionWords.contains(name) {
                // In a chain (`a.multicast(s).map { … }`), not on a line of its own.
                return try connectionWord(name, of: .null(arguments.range), at: arguments.range)
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
        if entry.name.hasPrefix("replay"), arguments.list.contains(where: { $0.label == "capacity" }) {
            // Rx's `replay(bufferSize)`; RAC gives a capacity to the subject, not to the operator.
            throw BuildError(
                message: "`\(name)` takes no capacity: RAC's replay subject has one",
                range: arguments.range,
                hint: "write `conn = a.multicast(replaySubject(capacity: 1))`, then `conn.connect()` and read `conn.signal`"
            )
        }
        if let shape = spelling?.shape ?? entry.shape { try arguments.expect(shape, usage: entry.usage) }
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

    /// `take(3)`, `skip(3)`, `takeLast(3)` (`counting`), and, where `window` is given, the
    /// windows `take(while:)`, `take(until:)`…
    mutating func counted(
        _ call: OperatorCall,
        window: Window?,
        _ counting: @escaping @Sendable (Stream, Int) -> Stream
    ) throws(BuildError) -> SignalMaker {
        let (upstream, arguments) = (call.upstream, call.arguments)
        if let window, arguments.list.first?.label != nil {
            return try applyWindow(window, call)
        }
        try arguments.expect([nil], usage: "\(call.name)(3)")
        let count = try arguments.count(0)
        return { scopes in counting(upstream(scopes), count) }
    }

    /// `startWith(v)`, `ignore(v)`, `mapReplace(v)`: a constant, computed at each subscription.
    func constant(_ call: OperatorCall, _ operate: @escaping @Sendable (Stream, Value) -> Stream) -> SignalMaker {
        let (value, upstream) = (valueArgument(call.arguments, 0), call.upstream)
        return { scopes in .using(value, in: scopes) { constant in operate(upstream(scopes), constant) } }
    }

    /// An operator with no arguments and no closure: `distinctUntilChanged()`, `ignoreValues()`,
    /// `repeat()`, `materialize()`.
    func plain(_ call: OperatorCall, _ operate: @escaping @Sendable (Stream) -> Stream) -> SignalMaker {
        let upstream = call.upstream
        return { scopes in operate(upstream(scopes)) }
    }

    /// `not()` of bools.
    func not(_ call: OperatorCall) -> SignalMaker {
        let (upstream, range) = (call.upstream, call.arguments.range)
        return { scopes in
            upstream(scopes).attemptMap { value throws(PipelineFailure) in
                guard case .bool(let flag) = value else { throw .closure("`not` needs bools, not \(value.kindName)", at: range) }
                return .bool(!flag)
            }
        }
    }

    /// `and()`, `or()` of arrays of bools (`reduce`: Reactive's `and()` or `or()`).
    func bools(
        _ call: OperatorCall,
        _ reduce: @escaping @Sendable (Signal<[Bool], PipelineFailure>) -> Signal<Bool, PipelineFailure>
    ) -> SignalMaker {
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
            return reduce(flags).map(Value.bool)
        }
    }

    /// A combining closure of the program's, as ``fold(_:_:)`` gives it to the operator.
    typealias Step = @Sendable (Value, Value) throws(PipelineFailure) -> Value

    /// `scan`, `combinePrevious`, `aggregate`: a seed and a combining closure, which `operate`
    /// applies.
    func fold(_ call: OperatorCall, _ operate: @escaping @Sendable (Stream, Value, @escaping Step) -> Stream) throws(BuildError) -> SignalMaker {
        let initial = valueArgument(call.arguments, 0)
        let combine = try valueClosure(call.arguments, 1)
        let upstream = call.upstream
        return { scopes in
            .using(initial, in: scopes) { seed in
                operate(upstream(scopes), seed) { first, second throws(PipelineFailure) in try combine(scopes, [first, second]) }
            }
        }
    }

    /// `any { }`, `all { }`: the program's test judges each value, `decide` the verdicts.
    func judging(
        _ call: OperatorCall,
        _ decide: @escaping @Sendable (Signal<Bool, PipelineFailure>) -> Signal<Bool, PipelineFailure>
    ) throws(BuildError) -> SignalMaker {
        let test = try predicate(call.arguments, 0, of: call.name)
        let upstream = call.upstream
        return { scopes in
            decide(upstream(scopes).attemptMap { value throws(PipelineFailure) in try test(scopes, value) }).map(Value.bool)
        }
    }

    func collect(_ call: OperatorCall) -> SignalMaker {
        let (upstream, range) = (call.upstream, call.arguments.range)
        let limit = budget.limits.valueBytes
        return { scopes in upstream(scopes).collecting(upTo: limit, at: range) }
    }

    // MARK: Combining and flattening

    /// An operator of two streams, the other one its first argument: `merge(with:)`,
    /// `combineLatest(with:)`, `zip(with:)`, `sample(trigger)`, `concat(with:)`, `catchTo(s)`.
    mutating func binary(_ call: OperatorCall, _ operate: @escaping @Sendable (Stream, Stream) -> Stream) throws(BuildError) -> SignalMaker {
        let other = try compile(call.arguments[0], parameters: call.parameters)
        let upstream = call.upstream
        return { scopes in operate(upstream(scopes), other(scopes)) }
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

    mutating func then(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let next = try call.arguments.closure(0)
        let maker = try compile(next.body, parameters: call.parameters + [next.parameters])
        let upstream = call.upstream
        return { scopes in upstream(scopes).then { maker(scopes) } }
    }

    /// `c.if(then: a, else: b)`: follows `a` while `c`'s latest bool is true and `b` while it is
    /// false (RAC `+if:then:else:`, a switch: each change subscribes to the chosen stream afresh).
    mutating func ifThenElse(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let whenTrue = try compile(call.arguments[0], parameters: call.parameters)
        let whenFalse = try compile(call.arguments[1], parameters: call.parameters)
        let (upstream, range) = (call.upstream, call.arguments.range)
        return { scopes in
            let flags = upstream(scopes).attemptMap { value throws(PipelineFailure) -> Bool in
                guard case .bool(let flag) = value else { throw .closure("`if` needs bools, not \(value.kindName)", at: range) }
                return flag
            }
            return Signal.if(flags, then: whenTrue(scopes), else: whenFalse(scopes))
        }
    }

    /// `flatMap(.strategy) { }` (`strategy` is `nil`: the first argument gives it), and
    /// `flattenMap { }` (merge) and `concatMap { }` (concat), which are given theirs.
    mutating func flatMap(_ call: OperatorCall, strategy given: FlattenStrategy?) throws(BuildError) -> SignalMaker {
        let strategy: FlattenStrategy
        let index: Int
        if let given {
            (strategy, index) = (given, 0)
        } else {
            strategy = try call.arguments.flattenStrategy(0)
            index = 1
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

    /// An operator of one duration on the program's clock: `throttle(0.5s)`, `rateLimit(0.5s)`,
    /// `delay(0.5s)`, `buffer(every: 1s)`.
    func timed(
        _ call: OperatorCall,
        _ operate: @escaping @Sendable (Stream, Duration, any Scheduler) -> Stream
    ) throws(BuildError) -> SignalMaker {
        let interval = try call.arguments.duration(0)
        let (scheduler, upstream) = (self.scheduler, call.upstream)
        return { scopes in operate(upstream(scopes), interval, scheduler) }
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

    /// `deliver(on: scheduler)` (RAC `deliverOn:`: each event sent on from the scheduler) and
    /// `subscribe(on: scheduler)` (RAC `subscribeOn:`: the subscription, and so the work it
    /// starts, made on the scheduler) over the program's named schedulers.
    func hop(_ call: OperatorCall, _ operate: @escaping @Sendable (Stream, any Scheduler) -> Stream) throws(BuildError) -> SignalMaker {
        let name = try call.arguments.schedulerName(0)
        let (scheduler, upstream) = (name == "background" ? background : self.scheduler, call.upstream)
        return { scopes in operate(upstream(scopes), scheduler) }
    }

    /// Which end of a stream a window's test cuts: `take(while:)`… keep its start, `skip(while:)`…
    /// its end.
    enum Window { case take, skip }

    /// `take(while:)`, `take(until:)` (a closure or a stream), `skip(while:)`, `skip(until:)`.
    private mutating func applyWindow(_ window: Window, _ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let (name, upstream, arguments, parameters) = (call.name, call.upstream, call.arguments, call.parameters)
        let label = arguments.list.first?.label ?? ""
        if window == .take, label == "untilReplacement", arguments.list.count == 1 {
            // `take(untilReplacement: stream)`: this stream until the replacement sends anything,
            // then the replacement (RAC `takeUntilReplacement:`).
            let replacement = try compile(arguments[0], parameters: parameters)
            return { scopes in upstream(scopes).take(untilReplacement: replacement(scopes)) }
        }
        guard arguments.list.count == 1, label == "while" || label == "until" else {
            throw BuildError(
                message: "`\(name)` takes a count, `while:` or `until:`\(window == .take ? " or `untilReplacement:`" : "")",
                range: arguments.range,
                hint: "write `\(name)(3)`, `\(name)(while: { $0 > 0 })` or `\(name)(until: { $0 == 0 })`"
            )
        }
        var isClosure = false
        if case .closure = arguments[0] { isClosure = true }
        if window == .take, label == "until", !isClosure {
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
            let isWhile = label == "while"
            switch window {
            case .take: return (isWhile ? judged.take(while: verdict) : judged.take(until: verdict)).map(unpacked)
            case .skip: return (isWhile ? judged.skip(while: verdict) : judged.skip(until: verdict)).map(unpacked)
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
