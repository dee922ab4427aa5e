import Reactive

// Subjects in the language: `s = subject()` (RAC's `[RACSubject subject]`) and
// `r = replaySubject(capacity: 2)` (`[RACReplaySubject replaySubjectWithCapacity:2]`), each one
// object for the program's life, hot: every stage that reads it is one more subscriber in its
// list, drawn as a lane of its own. A `SOURCE.subscribe(s)` line feeds it, as
// `[signal subscribe:subject]` does; an `input` line is a subject the page sends into.

extension Builder {
    /// What `replaySubject()` keeps without a capacity: as many values as `replay()` keeps.
    static let unboundedReplayCapacity = replayCapacity

    /// The subject a definition makes when it is a subject line (`s = subject()`), else `nil`.
    static func subjectKind(of definition: StreamDefinition) -> (name: String, arguments: [Argument], range: SourceRange)? {
        guard case .call(.name(let name, _), let arguments, let range) = definition.expression,
            LanguageSource.byName[name]?.kind == .subject
        else { return nil }
        return (name, arguments, range)
    }

    /// The subject of a subject line, made once; its input is kept for the lines that feed it.
    mutating func subjectSignal(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        guard let (name, list, range) = Self.subjectKind(of: definition) else { return nil }
        let arguments = Arguments(name: name, list: list, range: range)
        let signal: Signal<Value, PipelineFailure>
        if name == "subject" {
            try arguments.expect([], usage: "subject()")
            let subject = Subject<Value, PipelineFailure>()
            retained.append(subject)
            subjectInputs[definition.name] = subject.input
            signal = subject.signal
        } else {
            let capacity: Int
            if list.isEmpty {
                capacity = Self.unboundedReplayCapacity
            } else {
                try arguments.expect(["capacity"], usage: "replaySubject(capacity: 1)")
                guard case .number(let value, _) = arguments[0], value.rounded() == value, value >= 0,
                    value <= Double(Self.unboundedReplayCapacity)
                else {
                    throw BuildError(
                        message: "`replaySubject`'s capacity is a whole number of values from 0 to \(Self.unboundedReplayCapacity)",
                        range: arguments[0].range
                    )
                }
                capacity = Int(value)
            }
            let subject = ReplaySubject<Value, PipelineFailure>(capacity: capacity)
            retained.append(subject)
            subjectInputs[definition.name] = subject.input
            signal = subject.signal
        }
        let budget = self.budget
        return probe.reporting(signal, as: definition.name).spendingOnSubscription(budget)
    }

    /// A `SOURCE.subscribe(SUBJECT)` line's signal and the subject's input it is subscribed to;
    /// `nil` when the subject's own line failed (its problem is reported there).
    mutating func feed(_ feed: Feed) throws(BuildError) -> (Signal<Value, PipelineFailure>, Subscriber<Value, PipelineFailure>)? {
        guard let input = subjectInputs[feed.subject] else {
            if let line = program.streams.first(where: { $0.name == feed.subject }), Self.subjectKind(of: line) != nil { return nil }
            throw BuildError(
                message: "`\(Checker.shortened(feed.subject))` is not a subject: `subscribe(…)` feeds one",
                range: feed.subjectRange,
                hint: "define it as `\(Checker.shortened(feed.subject)) = subject()` or `replaySubject(capacity: 1)`"
            )
        }
        let outerOwner = sourceOwner
        sourceOwner = feed.subject  // an inline source (`marbles("-a|").subscribe(s)`) is drawn as the subject's
        defer { sourceOwner = outerOwner }
        return (try compile(feed.source, parameters: [])([]), input)
    }

    /// Refuses a subject made anywhere but a line of its own.
    static func subjectOutsideItsLine(_ call: SourceCall) -> BuildError {
        BuildError(
            message: "a subject is one object, defined on a line of its own",
            range: call.arguments.range,
            hint: "write `s = \(call.usage)`, then read `s`"
        )
    }
}
