import Reactive

// Channels in the language, RAC's `RACChannel`:
//
//     ch = channel()
//     typed.subscribe(ch.leadingTerminal)      // what the view sends…
//     model = ch.followingTerminal.map { $0 }  // …the model's side reads, its latest replayed
//     clear.subscribe(ch.followingTerminal)    // what the model sends…
//     view = ch.leadingTerminal.map { $0 }     // …the view's side reads
//
// A channel line makes one channel for the program's life. Each terminal is a signal and a
// subscriber: reading one subscribes to its own subject, feeding one sends into the other's —
// the leading terminal's subject is a replay subject of capacity 0, the following's of capacity 1,
// so a new reader of the following terminal gets its latest value and one of the leading does
// not; an error or completion sent into either ends both. Each terminal is drawn as a row inside
// the channel's, `ch·leadingTerminal` and `ch·followingTerminal`: a lane per reader, its events kept
// under that name (a live session's event stream carries its values).

extension Builder {
    /// A channel's two terminals, by RAC's names.
    static let terminals: Set<String> = ["leadingTerminal", "followingTerminal"]

    /// Whether `definition` is a channel line (`ch = channel()`).
    static func isChannelLine(_ definition: StreamDefinition) -> Bool {
        guard case .call(.name("channel", _), _, _) = definition.expression else { return false }
        return true
    }

    /// Whether `name` is defined by a channel line.
    func isChannel(_ name: String) -> Bool { channelLines.contains(name) }

    /// Makes the channel of a channel line; `nil` for any other line. The line's own signal sends
    /// nothing: a channel is read through its terminals.
    mutating func channelSignal(_ definition: StreamDefinition) throws(BuildError) -> Signal<Value, PipelineFailure>? {
        guard Self.isChannelLine(definition), case .call(_, let list, let range) = definition.expression else { return nil }
        try Arguments(name: "channel", list: list, range: range).expect([], usage: "\(Checker.shortened(definition.name)) = channel()")
        let channel = Channel<Value, PipelineFailure>()
        channels[definition.name] = channel
        retained.append(channel)
        return .never
    }

    /// `ch.leadingTerminal` or `ch.followingTerminal` read as a signal: its own subject, reported
    /// as `ch·leadingTerminal`, its events and values recorded under that name.
    mutating func terminalSignal(_ terminal: String, of base: Expression, at range: SourceRange) throws(BuildError) -> SignalMaker {
        guard case .name(let name, _) = base, isChannel(name) else {
            throw BuildError(
                message: "only a channel has `\(terminal)`",
                range: range,
                hint: "define `ch = channel()`, then read `ch.\(terminal)`"
            )
        }
        _ = try streamSignal(name)
        guard let channel = channels[name] else { return { _ in .never } }  // its line's problem is reported there
        let signal = terminal == "leadingTerminal" ? channel.leading.signal : channel.following.signal
        let reported = "\(name)·\(terminal)"
        if !reportedSources[name, default: []].contains(reported) { reportedSources[name, default: []].append(reported) }
        let (probe, budget) = (self.probe, self.budget)
        return { _ in probe.reporting(signal, as: reported).spendingOnSubscription(budget) }
    }

    /// The subscriber a line feeding `terminal` of `channel` sends into; `nil` when the channel's
    /// own line failed (its problem is reported there).
    func terminalInput(_ terminal: String, of name: String, at range: SourceRange) throws(BuildError) -> Subscriber<Value, PipelineFailure>? {
        guard let channel = channels[name] else {
            if isChannel(name) { return nil }
            throw Self.notAChannel(name, terminal: terminal, at: range)
        }
        return terminal == "leadingTerminal" ? channel.leading.input : channel.following.input
    }

    /// Refuses a terminal of something that is not a channel.
    static func notAChannel(_ name: String, terminal: String, at range: SourceRange) -> BuildError {
        BuildError(
            message: "`\(Checker.shortened(name))` is not a channel: `\(terminal)` is a channel's",
            range: range,
            hint: "define it as `\(Checker.shortened(name)) = channel()`"
        )
    }

    /// Refuses a channel read as if it were a signal.
    static func channelReadAsASignal(_ name: String, at range: SourceRange) -> BuildError {
        BuildError(
            message: "`\(Checker.shortened(name))` is a channel, not a signal (RAC's RACChannel)",
            range: range,
            hint: "read one of its terminals: `\(Checker.shortened(name)).leadingTerminal` or `.followingTerminal`"
        )
    }

    /// Refuses a channel made anywhere but a line of its own.
    static func channelOutsideItsLine(_ call: SourceCall) -> BuildError {
        BuildError(
            message: "a channel is one object, defined on a line of its own",
            range: call.arguments.range,
            hint: "write `ch = channel()`, then read `ch.leadingTerminal` and `ch.followingTerminal`"
        )
    }
}
