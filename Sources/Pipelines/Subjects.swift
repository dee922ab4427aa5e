import Reactive

// Subjects in the language: `s = subject()` (RAC's `[RACSubject subject]`) and
// `r = replaySubject(capacity: 2)` (`[RACReplaySubject replaySubjectWithCapacity:2]`), each one
// object for the program's life, hot: every stage that reads it is one more subscriber in its
// list, drawn as a lane of its own. A `SOURCE.subscribe(s)` line feeds it, as
// `[signal subscribe:subject]` does; an `input` line is a subject the page sends into.

/// A subject of the language's values: a program's `subject()` or `replaySubject(…)`.
typealias PipelineSubject = any SubjectProtocol<Value, PipelineFailure>

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

    /// The subject of a subject line, made once; it is kept for the lines that feed it and the
    /// connections that multicast through it.
    mutating func subjectSignal(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        guard let (name, list, range) = Self.subjectKind(of: definition) else { return nil }
        let subject = try makeSubject(name, list, range: range)
        subjects[definition.name] = subject
        let budget = self.budget
        return probe.reporting(subject.signal, as: definition.name).spendingOnSubscription(budget)
    }

    /// A new `subject()` or `replaySubject(capacity: N)`, kept alive while the program runs.
    mutating func makeSubject(_ name: String, _ list: [Argument], range: SourceRange) throws(BuildError) -> PipelineSubject {
        let arguments = Arguments(name: name, list: list, range: range)
        let subject: PipelineSubject
        if name == "subject" {
            try arguments.expect([], usage: "subject()")
            subject = Subject<Value, PipelineFailure>()
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
            subject = ReplaySubject<Value, PipelineFailure>(capacity: capacity)
        }
        retained.append(subject)
        return subject
    }

    /// A `SOURCE.subscribe(SUBJECT)` line's signal and the subject's input it is subscribed to;
    /// `nil` when the subject's own line failed (its problem is reported there).
    mutating func feed(_ feed: Feed) throws(BuildError) -> (Signal<Value, PipelineFailure>, Subscriber<Value, PipelineFailure>)? {
        if let terminal = feed.terminal {
            guard let input = try terminalInput(terminal, of: feed.subject, at: feed.subjectRange) else { return nil }
            return (try compile(feed.source, parameters: [])([]), input)
        }
        guard let input = subjects[feed.subject]?.input else {
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
