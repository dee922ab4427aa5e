import Reactive

/// A lesson's question on the machine (docs/LESSONS.md, "Questions on the machine"): a number
/// the learner predicts about the RAC objects the lesson's program builds — how many
/// subscriptions it makes, how many are alive after a disposal, what a subject or a serial
/// disposable holds, what a replay subject keeps — answered by the objects of a real run at one
/// instant (``InsideGraph``, as `POST /api/marbles?inside=MS` gives it). The page counts the
/// same way (`Public/learn/machine-question.js`); a test holds the two to one answer.
struct MachineQuestion: Decodable, Sendable, Equatable {
    /// What is counted.
    enum Count: String, CaseIterable, Sendable {
        /// The subscriptions (a lane's subscriber each, from `^` to `!`) made by the instant.
        case made
        /// The subscriptions neither disposed nor freed at the instant.
        case alive
        /// The objects the one object of kind `of` holds at the instant (of `kind`, if given).
        case held
        /// The values the one replay subject holds at the instant for its next subscriber.
        case buffered
    }

    let question: String?
    /// The instant asked about, in milliseconds of the run.
    let at: Double?
    let count: String?
    /// For `made` and `alive`: only the subscriptions of this stream (`a`, `out·marbles`).
    let stream: String?
    /// For `held` and `buffered`: the kind of the one object asked about (`subject`).
    let of: String?
    /// For `held`: only the held objects of this kind (`subscriber`).
    let kind: String?
    /// A program of the question's own, on the lesson's rows (default: the lesson's program).
    let program: String?
    /// The author's answer, which the check holds to the real run's.
    let answer: Int?
    /// What the learner reads once the count is shown.
    let result: String?

    /// Every field a question may have: any other is a typo to report.
    static let fields: Set<String> = ["question", "at", "count", "stream", "of", "kind", "program", "answer", "result"]
    /// The most questions a lesson asks on the machine: each is a run of the check.
    static let maximumPerLesson = 4

    /// The problems of the question's form, without running it, for `machine[index]`.
    func formProblems(_ field: String) -> [LessonCheck.Problem] {
        var problems: [LessonCheck.Problem] = []
        func problem(_ name: String, _ message: String) { problems.append(.init(field: "\(field).\(name)", message: message)) }
        if (question ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problem("question", "is missing: what the learner counts.") }
        if (result ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problem("result", "is missing: what the learner reads after.") }
        if let at, !(0...ProgramDrawing.maximumUntil).contains(at) {
            problem("at", "is an instant from 0 to \(Int(ProgramDrawing.maximumUntil)) ms.")
        } else if at == nil {
            problem("at", "is missing: the instant asked about, in ms.")
        }
        if let answer, !(0...10_000).contains(answer) { problem("answer", "is a count from 0 to 10000.") }
        if answer == nil { problem("answer", "is missing: the count, which the check holds to the run's.") }
        switch count.flatMap(Count.init(rawValue:)) {
        case nil:
            problem("count", "is one of \(Count.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")).")
        case .made?, .alive?:
            if of != nil || kind != nil { problem("of", "counts subscriptions: give `stream` (or nothing), not `of` or `kind`.") }
        case .held?, .buffered?:
            if stream != nil { problem("stream", "counts what one object holds: give `of`, not `stream`.") }
            if of.flatMap(InspectedKind.init(rawValue:)) == nil { problem("of", "is the kind of the one object asked about (\(Self.kinds)).") }
            if let kind, InspectedKind(rawValue: kind) == nil { problem("kind", "is a kind of object (\(Self.kinds)).") }
            if count == Count.buffered.rawValue, of != InspectedKind.replaySubject.rawValue {
                problem("of", "is `replaySubject`: only a replay subject buffers.")
            }
        }
        return problems
    }

    private static var kinds: String { InspectedKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ") }

    /// The count in `graph` (built at ``at``, since 0), or why there is none.
    func counted(in graph: InsideGraph) -> Result<Int, CountProblem> {
        let at = graph.at
        let own = graph.nodes.filter { $0.probe != true }
        func alive(_ node: InsideGraph.Node) -> Bool { node.created <= at && node.disposed == nil && node.released == nil }
        switch count.flatMap(Count.init(rawValue:)) {
        case nil:
            return .failure(.unreadable)
        case .made?, .alive?:
            let subscriptions = own.filter { $0.subscription != nil && (stream == nil || $0.stream == stream) }
            return .success(count == Count.made.rawValue ? subscriptions.count : subscriptions.filter(alive).count)
        case .held?, .buffered?:
            guard let kind = of.flatMap(InspectedKind.init(rawValue:)) else { return .failure(.unreadable) }
            let candidates = own.filter { $0.kind == kind && alive($0) }
            guard candidates.count == 1, let one = candidates.first else { return .failure(.notOne(kind, candidates.count)) }
            if count == Count.buffered.rawValue { return .success(one.buffered ?? 0) }
            let byID = Dictionary(uniqueKeysWithValues: graph.nodes.map { ($0.id, $0) })
            let wanted = self.kind.flatMap(InspectedKind.init(rawValue:))
            return .success(one.holds.filter { held in wanted.map { byID[held]?.kind == $0 } ?? true }.count)
        }
    }

    /// Why a graph gives no count.
    enum CountProblem: Error, Equatable {
        case unreadable
        /// The run has not exactly one object of the kind asked about alive at the instant.
        case notOne(InspectedKind, Int)

        var message: String {
            switch self {
            case .unreadable: "The question cannot be read (docs/LESSONS.md)."
            case .notOne(let kind, let count):
                "The run has \(count) \(kind.racClassName) alive at the instant (the playground's probes aside), not one to ask about."
            }
        }
    }
}
