import Scenarios

/// What a wrong answer to a room's question says about how its author read the program: the
/// difference between the answer and the truth, named as a teacher names it (docs/ROOMS.md,
/// "Wrong answers, by what they missed"). Answers that differ in their marbles but miss the same
/// thing fall in one group: "let every value through" is one mistake whatever the values.
///
/// The classifier compares events in frames (``LessonRuns/Read``): the answer, the truth, and the
/// rows the asked stream reads from (`sources`: each named stream's events in the question's
/// window, as the room's run had them). The first rule that fits wins, in the order of the cases.
enum Misconception: String, CaseIterable, Sendable, Encodable {
    /// An input row's values, all of them, each within a frame of its own: the operator read as
    /// letting everything through (a `delay` that did not delay, a `take` that took all).
    case everyValue
    /// Every event right but in another frame, all by the same number of frames.
    case shifted
    /// The values right, the end (completion or error) missing, extra, or in another frame.
    case missedTheEnd
    /// The values and end the source had, from a late subscription on: the source read as shared
    /// (hot) where the subscription starts it again (cold), so the truth is the source later.
    case sharedWhereCold
    /// The truth's values at first, then more after the truth has ended: values kept after the
    /// subscription was disposed (`take`, `takeUntil`, a switch to the latest).
    case keptAfterDisposal
    /// For each value the truth sends late (after its input sent it), an earlier value of the same
    /// burst, sent when it came: a throttle read as leading, RAC's being trailing.
    case firstOfEachBurst
    /// None of the above.
    case other

    /// The group's sentence, for the teacher's screen and the class at the reveal.
    var sentence: String {
        switch self {
        case .shifted: "Right values, every one shifted by the same time."
        case .missedTheEnd: "Right values; the completion or error is missing, extra or in another frame."
        case .sharedWhereCold: "Read the source as shared: a late subscription to a cold signal starts it again."
        case .everyValue: "Let every value through, as if the operator did nothing."
        case .keptAfterDisposal: "Kept values after the subscription was disposed."
        case .firstOfEachBurst: "Sent the first value of each burst, when it came: RAC's throttle sends the last, after the quiet."
        case .other: "Another difference from the answer."
        }
    }

    typealias Read = LessonRuns.Read

    /// The group of `answer` (wrong: not equal to `truth`) among these rules.
    static func classify(_ answer: [Read], truth: [Read], sources: [[Read]]) -> Misconception {
        let (values, end) = split(answer)
        let (truthValues, truthEnd) = split(truth)
        if values != truthValues, sources.contains(where: { isEveryValue(values, of: split($0).values) }) { return .everyValue }
        if let shift = constantShift(answer, truth), shift != 0 { return .shifted }
        if values == truthValues, end != truthEnd { return .missedTheEnd }
        for source in sources where !source.isEmpty {
            // The truth is the source started again later; the answer is the source as it ran.
            if let later = constantShift(truth, source), later > 0, isLateSubscription(answer, to: source, truth: truth) {
                return .sharedWhereCold
            }
        }
        if let ended = truthEnd?.frame, values.count > truthValues.count, Array(values.prefix(truthValues.count)) == truthValues,
            values.dropFirst(truthValues.count).allSatisfy({ $0.frame >= ended })
        {
            return .keptAfterDisposal
        }
        if sources.contains(where: { isLeadingReading(values, truthValues, of: split($0).values) }) { return .firstOfEachBurst }
        return .other
    }

    /// Whether `values` are `input`'s, all of them in order, each in its frame or the next or the
    /// one before (a value the window starts with is easily written a frame late).
    private static func isEveryValue(_ values: [Read], of input: [Read]) -> Bool {
        !input.isEmpty && values.count == input.count
            && zip(values, input).allSatisfy { $0.value == $1.value && abs($0.frame - $1.frame) <= 1 }
    }

    /// Whether `values` takes, for each of the truth's values — each sent after its input sent it
    /// — an earlier input value of the same burst (after the previous truth value's), at the frame
    /// the input sent it.
    private static func isLeadingReading(_ values: [Read], _ truth: [Read], of input: [Read]) -> Bool {
        guard !values.isEmpty, values.count == truth.count else { return false }
        var previous = -1
        for (answered, sent) in zip(values, truth) {
            // The input's value the truth sends: its latest sending before the truth's frame.
            guard let source = input.lastIndex(where: { $0.value == sent.value && $0.frame < sent.frame }),
                let taken = input.firstIndex(of: answered), taken > previous, taken < source
            else { return false }
            previous = source
        }
        return true
    }

    /// The values, and the end (`|` or `#`) if there is one.
    private static func split(_ events: [Read]) -> (values: [Read], end: Read?) {
        (events.filter { $0.kind == "n" }, events.first { $0.kind != "n" })
    }

    /// The frames by which every event of `events` follows the same event of `base`, if one
    /// number does for all (both non-empty, the same kinds and values in order).
    private static func constantShift(_ events: [Read], _ base: [Read]) -> Int? {
        guard !events.isEmpty, events.count == base.count else { return nil }
        let shift = events[0].frame - base[0].frame
        for (event, original) in zip(events, base)
        where event.kind != original.kind || event.value != original.value || event.frame - original.frame != shift {
            return nil
        }
        return shift
    }

    /// Whether `answer` is `source`'s events from the frame the truth starts on, at their own frames.
    private static func isLateSubscription(_ answer: [Read], to source: [Read], truth: [Read]) -> Bool {
        guard let start = truth.first?.frame else { return false }
        let heard = source.filter { $0.frame >= start - 1 }
        return !answer.isEmpty && answer == heard
    }
}

extension LessonRuns.Read {
    /// A stream's event in frame `frame`, its value written as a lesson's reading writes it.
    init(_ event: StreamEvent, frame: Int) {
        switch event {
        case .next(let value): self.init(frame: frame, kind: "n", value: EventJSON.json(value))
        case .error: self.init(frame: frame, kind: "#", value: nil)
        case .completed: self.init(frame: frame, kind: "|", value: nil)
        }
    }
}
