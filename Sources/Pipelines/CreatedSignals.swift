import Reactive

// `createSignal { subscriber in … }`: RAC's `+[RACSignal createSignal:]` in the language. The
// block is compiled once into steps and run once per subscription, as RAC runs its block for each
// subscriber: a signal subscribed twice runs it twice (the sharing check warns, as for any cold
// source). Its lines send to the subscriber it is handed, or schedule more lines on the session's
// scheduler; what a line schedules is disposed with the subscription. Its last line may give back
// the disposable RAC's block returns, `return disposable { }`: drawn as a lane of its own,
// `s·disposable`, from the block's run to the `!` of its disposal — when a `take(1)` below ends
// the subscription, say.

/// One line of a `createSignal` block, compiled.
indirect enum SubscriberStep: Sendable {
    /// `subscriber.sendNext(value)`.
    case sendNext(Expression)
    /// `subscriber.sendError(message)`: the signal fails with the message's text.
    case sendError(Expression)
    /// `subscriber.sendCompleted()`.
    case sendCompleted
    /// `after(0.2s) { … }`: the lines run that long after this one, on the session's scheduler
    /// (RAC's `[scheduler afterDelay:schedule:]`).
    case after(Duration, [SubscriberStep])
}

extension Builder {
    /// How `createSignal` is written, for its messages.
    static let createSignalUsage = "createSignal { subscriber in subscriber.sendNext(1); after(1s) { subscriber.sendCompleted() } }"

    mutating func createSignal(_ call: SourceCall) throws(BuildError) -> SignalMaker {
        let arguments = call.arguments
        guard arguments.list.count == 1, arguments.list[0].label == nil else {
            throw BuildError(
                message: "`createSignal` takes one block, which is handed each subscriber",
                range: arguments.range,
                hint: "write `\(Self.createSignalUsage)`"
            )
        }
        let (parameters, body) = try arguments.block(0)
        guard parameters.count == 1 else {
            throw BuildError(
                message: "`createSignal`'s block names the subscriber it is handed",
                range: arguments[0].range,
                hint: "write `\(Self.createSignalUsage)`"
            )
        }
        var lines = Self.lines(of: body)
        let disposable = try Self.returnedDisposable(&lines)
        let steps = try Self.subscriberSteps(of: lines, subscriber: parameters[0])
        let (scheduler, budget, probe) = (self.scheduler, self.budget, self.probe)
        let disposableLane = disposable ? sourceOwner.map { "\($0)·\(Vocabulary.disposableBlock)" } : nil
        if let disposableLane, let owner = sourceOwner, !reportedSources[owner, default: []].contains(disposableLane) {
            reportedSources[owner, default: []].append(disposableLane)
        }
        return { scopes in
            Signal { subscriber in
                let scheduled = CompoundDisposable()
                Self.run(steps, scopes: scopes, on: subscriber, scheduling: scheduled, scheduler: scheduler, budget: budget)
                // The block's disposable, alive from its return to its disposal: a lane that never
                // sends, subscribed now and disposed with it.
                if let disposableLane { scheduled.add(probe.reporting(.never, as: disposableLane, values: false).subscribe(Subscriber { _ in })) }
                // RAC disposes the block's disposable when the subscription ends: here, what it scheduled.
                return scheduled
            }
        }
    }

    /// A block's lines: its statements, or its one expression.
    static func lines(of body: Expression) -> [Expression] {
        if case .block(let statements, _) = body { return statements }
        return [body]
    }

    /// Whether the block's last line gives back a disposable (`return disposable { }`, or
    /// `disposable { }`), which it then takes off `lines`.
    private static func returnedDisposable(_ lines: inout [Expression]) throws(BuildError) -> Bool {
        guard case .call(.name(Vocabulary.disposableBlock, _), let list, let range)? = lines.last else { return false }
        let usage = "return disposable { }"
        let arguments = Arguments(name: Vocabulary.disposableBlock, list: list, range: range)
        try arguments.expect([nil], usage: usage)
        guard case .closure([], .block([], _), _) = arguments[0] else {
            throw BuildError(
                message: "the block's disposable has nothing to clean up here: its disposal is drawn, as the `!` of its lane",
                range: arguments[0].range,
                hint: "write `\(usage)`; what `after` scheduled is disposed with it"
            )
        }
        lines.removeLast()
        if case .name(Vocabulary.returnWord, _)? = lines.last { lines.removeLast() }
        return true
    }

    /// The steps of a block's `body`, whose lines may only send to `subscriber` or schedule more
    /// such lines with `after`.
    static func subscriberSteps(of lines: [Expression], subscriber: String) throws(BuildError) -> [SubscriberStep] {
        var steps: [SubscriberStep] = []
        for line in lines { steps.append(try subscriberStep(line, subscriber: subscriber)) }
        return steps
    }

    private static func subscriberStep(_ line: Expression, subscriber: String) throws(BuildError) -> SubscriberStep {
        switch line {
        case .call(.member(.name(let receiver, _)?, let action, _), let list, let range)
        where receiver == subscriber && Vocabulary.subscriberActions.contains(action):
            let arguments = Arguments(name: action, list: list, range: range)
            if action == "sendCompleted" {
                try arguments.expect([], usage: "\(subscriber).sendCompleted()")
                return .sendCompleted
            }
            try arguments.expect([nil], usage: "\(subscriber).\(action)(\(action == "sendNext" ? "1" : "\"message\""))")
            if arguments[0].uses([subscriber]) {
                throw BuildError(
                    message: "`\(subscriber)` is the subscriber, not a value to send",
                    range: arguments[0].range,
                    hint: "send a value: `\(subscriber).sendNext(1)`"
                )
            }
            return action == "sendNext" ? .sendNext(arguments[0]) : .sendError(arguments[0])
        case .call(.name(Vocabulary.afterBlock, _), let list, let range):
            let arguments = Arguments(name: Vocabulary.afterBlock, list: list, range: range)
            let usage = "after(0.2s) { \(subscriber).sendNext(2) }"
            try arguments.expect([nil, nil], usage: usage)
            let delay = try arguments.duration(0, minimum: 0)
            let (parameters, body) = try arguments.block(1)
            guard parameters.isEmpty else {
                throw BuildError(message: "`after`'s block takes no parameters", range: arguments[1].range, hint: "write `\(usage)`")
            }
            return .after(delay, try subscriberSteps(of: lines(of: body), subscriber: subscriber))
        case .call(.name(Vocabulary.disposableBlock, _), _, let range), .name(Vocabulary.returnWord, let range):
            throw BuildError(
                message: "the block's disposable is its last line",
                range: range,
                hint: "end the block with `return disposable { }`"
            )
        default:
            throw BuildError(
                message: "a line of `createSignal`'s block sends to its subscriber or schedules lines with `after`",
                range: line.range,
                hint: "write `\(subscriber).sendNext(1)`, `\(subscriber).sendError(\"message\")`, "
                    + "`\(subscriber).sendCompleted()` or `after(0.2s) { … }`"
            )
        }
    }

    /// Runs `steps` in order for one subscription: each value is computed as it is sent, a value
    /// that fails fails the signal, and each line is a step of the program's budget.
    static func run(
        _ steps: [SubscriberStep],
        scopes: [Evaluator.Scope],
        on subscriber: Subscriber<Value, PipelineFailure>,
        scheduling scheduled: CompoundDisposable,
        scheduler: any Scheduler,
        budget: StepBudget
    ) {
        for step in steps {
            guard !scheduled.isDisposed, budget.spend() else { return }
            switch step {
            case .sendNext(let expression):
                do throws(PipelineFailure) {
                    subscriber.sendNext(try Evaluator(scopes: scopes, budget: budget).evaluate(expression))
                } catch {
                    subscriber.sendError(error)
                    return
                }
            case .sendError(let expression):
                do throws(PipelineFailure) {
                    let message = try Evaluator(scopes: scopes, budget: budget).evaluate(expression)
                    subscriber.sendError(PipelineFailure(code: "failure", message: message.text))
                } catch {
                    subscriber.sendError(error)
                }
            case .sendCompleted:
                subscriber.sendCompleted()
            case .after(let delay, let later):
                scheduled.add(
                    scheduler.schedule(after: delay) {
                        run(later, scopes: scopes, on: subscriber, scheduling: scheduled, scheduler: scheduler, budget: budget)
                    }
                )
            }
        }
    }
}
