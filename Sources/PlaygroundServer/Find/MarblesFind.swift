import Foundation
import MicroHTTP
import Pipelines

/// `POST /api/marbles/find`: which operator turns these inputs into this output? Every candidate
/// (``FindCandidates``) runs as a marble program on a virtual clock of its own (``ProgramDrawing``)
/// and its `out` is compared with the output wanted: the answer lists those that match exactly,
/// then the nearest by ``MarbleDistance`` (docs/API.md, "Find by behaviour").
///
/// Bounded twice over: each candidate may do ``stepsPerCandidate`` pieces of scheduled work and
/// the find ``stepsPerFind`` in all, within ``timeBudget`` of wall-clock time; past either, the
/// answer says so and gives what the candidates tried so far found.
enum MarblesFind {
    static let stepsPerCandidate = 2_000
    static let stepsPerFind = 200_000
    static let timeBudget = Duration.seconds(1)
    static let maximumExact = 10
    static let maximumNear = 5
    /// The most one candidate's answer holds, in bytes of values.
    static let answerBytesPerCandidate = 256 * 1024

    /// One program that was tried, with its output and how far that is from the one wanted.
    struct Found {
        let candidate: FindCandidate
        let program: String
        let distance: Double
        let drawing: ProgramDrawing.Drawing
    }

    /// What a find answers.
    struct Answer {
        let inputLines: String
        let exact: [Found]
        let near: [Found]
        let tried: Int
        let candidates: Int
        /// Why not every candidate was tried: `steps` or `time`.
        let truncation: (reason: String, message: String)?

        var json: String {
            func list(_ found: [Found]) -> String {
                "["
                    + found.map { found in
                        #"{"operator":"# + quoted(found.candidate.operatorName) + #","expression":"# + quoted(found.candidate.expression)
                            + #","program":"# + quoted(found.program) + #","distance":\#(found.distance),"output":"# + found.drawing.json + "}"
                    }.joined(separator: ",") + "]"
            }
            var text = #"{"inputs":"# + quoted(inputLines) + #","exact":"# + list(exact) + #","near":"# + list(near)
            text += #","tried":\#(tried),"candidates":\#(candidates),"truncated":\#(truncation != nil)"#
            if let truncation {
                text += #","truncation":{"reason":"# + quoted(truncation.reason) + #","message":"# + quoted(truncation.message) + "}"
            }
            return text + "}"
        }
    }

    /// Tries every candidate for `query`, within the budgets.
    static func find(
        _ query: FindQuery,
        limits: StepBudget.Limits = .standard,
        timeBudget: Duration = timeBudget,
        onLimit: @escaping @Sendable (String) -> Void = { _ in }
    ) -> Answer {
        let candidates = FindCandidates.all(for: query)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeBudget)
        // The clock runs until every row could have ended and the longest duration tried has
        // passed once more: twice the longest diagram, capped at the 60 s any marble run may go.
        let longest = ([query.outputDiagram] + query.inputs.map(\.diagram)).map(\.count).max() ?? 0
        let until = Double(min((longest + 1) * query.frame * 2, Int(ProgramDrawing.maximumUntil)))
        var exact: [Found] = []
        var near: [Found] = []
        var steps = 0
        var tried = 0
        var truncation: (reason: String, message: String)?
        for candidate in candidates {
            if steps >= stepsPerFind {
                truncation = (
                    "steps",
                    "The candidates did \(stepsPerFind) pieces of scheduled work, the most one find may do; \(tried) of \(candidates.count) were tried."
                )
                break
            }
            if clock.now >= deadline {
                truncation = ("time", "The find took the \(timeBudget) one find may take; \(tried) of \(candidates.count) candidates were tried.")
                break
            }
            tried += 1
            let program = query.inputLines + "\nout = " + candidate.expression
            guard
                case .success(let run) = ProgramDrawing.run(
                    program,
                    until: until,
                    rules: ProgramRules(limits: limits, onLimit: onLimit),
                    steps: stepsPerCandidate,
                    answerBytes: answerBytesPerCandidate
                ),
                let drawing = run.streams.first(where: { $0.name == "out" })
            else { continue }
            steps += run.steps
            let output = drawing.events.map { event in
                let frame = Int((event.t / Double(query.frame)).rounded(.down))
                return FindQuery.Event(frame: frame, kind: event.kind, valueJSON: event.kind == .next ? event.valueJSON : nil)
            }
            let found = Found(
                candidate: candidate,
                program: program,
                distance: MarbleDistance.between(output, query.output),
                drawing: drawing
            )
            if found.distance == 0 {
                if exact.count < maximumExact { exact.append(found) }
            } else if !near.contains(where: {
                $0.drawing.marbles == drawing.marbles && $0.drawing.values.map { $0.json } == drawing.values.map { $0.json }
            }) {
                // Kept sorted by distance, the earlier candidate first among equals.
                let index = near.firstIndex { $0.distance > found.distance } ?? near.endIndex
                if index < maximumNear {
                    near.insert(found, at: index)
                    if near.count > maximumNear { near.removeLast() }
                }
            }
        }
        return Answer(
            inputLines: query.inputLines,
            exact: exact,
            near: near,
            tried: tried,
            candidates: candidates.count,
            truncation: truncation
        )
    }
}

extension API {
    /// `POST /api/marbles/find`: the operators that turn the body's inputs into its output
    /// (``MarblesFind``), or 400 for a body that cannot be read.
    func findOperators(_ request: HTTPRequest) -> HTTPResponse {
        switch FindQuery.read(request.body) {
        case .failure(let error):
            return error.response
        case .success(let query):
            let metrics = self.metrics
            // The inputs alone, run once: rows a program cannot hold (values nested too deep, say)
            // are a clear 400, not an empty list of answers.
            let identity = query.inputLines + "\nout = " + query.inputs[0].name
            if case .failure(let refusal) = ProgramDrawing.run(identity, until: 1, rules: ProgramRules(limits: programLimits), steps: 1),
                let problem = refusal.diagnostics.first(where: { $0.severity == .error })
            {
                return PlaygroundError(.invalidValue, "The inputs cannot be run: \(problem.message).").response
            }
            let answer = MarblesFind.find(query, limits: programLimits, timeBudget: findTimeBudget) {
                metrics.programReachedLimit($0)
            }
            if let truncation = answer.truncation { metrics.marblesTruncated("find_" + truncation.reason) }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(answer.json.utf8)))
        }
    }
}

/// A string as JSON.
private func quoted(_ text: String) -> String {
    EventJSON.json(.string(text))
}
