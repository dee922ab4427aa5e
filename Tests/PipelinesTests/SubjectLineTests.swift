import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// Subjects in the language — `subject()`, `replaySubject(capacity:)` — and the line that feeds
/// one, `SOURCE.subscribe(SUBJECT)` (RAC's `[signal subscribe:subject]`). Expected events are
/// worked by hand from RAC's semantics.
@Suite("Subjects and the lines that feed them")
struct SubjectLineTests {
    typealias Recorded = Marbles.Recorded<Value, PipelineFailure>

    /// `-a-b-c|` into a replay subject of capacity 2; a subscriber arriving at 500 ms gets the
    /// last two values kept, b and c, at once, then the completion at 600 ms.
    @Test func aReplaySubjectGivesALateSubscriberItsLastValues() throws {
        let run = try ProgramMarbles.run(
            """
            r = replaySubject(capacity: 2)
            a = marbles("-a-b-c|")
            a.subscribe(r)
            late = timer(after: 500ms).flatMap(.merge) { _ in r }
            """
        )
        let expected: [Recorded] = [
            .init(frame: 5, event: .next("b")), .init(frame: 5, event: .next("c")), .init(frame: 6, event: .completed),
        ]
        #expect(run.events("late") == expected)
        #expect(run.subscriptions("a") == ["^-----!"], "the feeding line subscribes its source once")
    }

    /// A plain subject sends each value to the subscribers it holds then, in order; two readers
    /// are two subscribers of one subject, and its source is subscribed once.
    @Test func aSubjectSendsToEverySubscriberItHolds() throws {
        let run = try ProgramMarbles.run(
            """
            s = subject()
            first = s.map { $0 * 10 }
            second = s.map { $0 * 100 }
            marbles("-1-2|").subscribe(s)
            """
        )
        #expect(run.events("first") == (try Marbles.events("-a-b|", values: ["a": 10, "b": 20], error: ProgramMarbles.noFailure)))
        #expect(run.events("second") == (try Marbles.events("-a-b|", values: ["a": 100, "b": 200], error: ProgramMarbles.noFailure)))
        #expect(run.subscriptions("s") == ["^---!", "^---!"], "two subscribers in the subject's list")
        #expect(run.subscriptions("s·marbles") == ["^---!"], "one subscription of the source it is fed from")
    }

    /// A subscriber that arrives after a plain subject sent misses what was sent; lines run in
    /// order, so a feeding line above the reader sends `just`'s value before anyone listens.
    @Test func aPlainSubjectKeepsNothingForLateSubscribers() throws {
        let run = try ProgramMarbles.run(
            """
            s = subject()
            just(1).subscribe(s)
            out = s.map { $0 }
            """
        )
        #expect(run.events("out") == [Recorded(frame: 0, event: .completed)], "the value went to no one; the completion is kept")
        let replayed = try ProgramMarbles.run("s = replaySubject(capacity: 1)\njust(1).subscribe(s)\nout = s.map { $0 }\n")
        #expect(replayed.events("out") == [Recorded(frame: 0, event: .next(1)), Recorded(frame: 0, event: .completed)])
    }

    @Test func mistakesAreNamed() {
        let cycle = PipelineLanguage.check("s = subject()\nt = s.map { $0 }\nt.subscribe(s)")
        #expect(cycle.map(\.message) == ["`s` is defined through itself: `s` → `t` → `s`"], "a subject fed from itself")
        let itself = PipelineLanguage.check("s = subject()\ns.subscribe(s)")
        #expect(itself.map(\.message) == ["`s` is defined through itself: `s` → `s`"], "a subject fed with itself, which would recurse for ever")
        #expect(
            PipelineLanguage.check("q = just(1)\nq.subscribe(q)").map(\.message) == ["`q` is not a subject: `subscribe(…)` feeds one"]
        )
        #expect(PipelineLanguage.check("just(1).subscribe(nowhere)").map(\.message) == ["unknown subject `nowhere`"])
        #expect(
            PipelineLanguage.check("a = just(1)\na.map { $0 }").map(\.message)
                == [
                    "a line defines a stream (`NAME = …`), declares an input, feeds a subject (`a.subscribe(s)`) or connects a connection (`conn.connect()`)"
                ]
        )
        #expect(buildErrors("q = just(1)\nx = merge(subject(), q)") == ["a subject is one object, defined on a line of its own"])
        #expect(
            buildErrors("r = replaySubject(capacity: 1.5)\nout = r.map { $0 }")
                == ["`replaySubject`'s capacity is a whole number of values from 0 to 1000"]
        )
        let shared = PipelineLanguage.check("s = subject()\na = s.map { $0 }\nb = s.map { $0 }\njust(1).subscribe(s)")
        #expect(shared.isEmpty, "a subject read twice is one object with two subscribers, not work done twice: \(shared)")
    }

    @Test func theTimeScaleWaitsForWhatFeedsASubject() {
        let program = PipelineLanguage.parse("s = subject()\nmarbles(\"-a-b-|\").subscribe(s)\nout = s.map { $0 }").program
        #expect(TimeScale.milliseconds(of: program, serviceLatency: .zero) == 600)
    }
}
