import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// `createSignal { subscriber in … }`, RAC's `+createSignal:`: a block run once per subscription,
/// sending to the subscriber it is handed now or later, what it scheduled disposed with the
/// subscription. The expected events are worked by hand from the block's lines.
@Suite("createSignal: a block run per subscription")
struct CreateSignalTests {
    func events(_ diagram: String, _ values: [Character: Value]) throws -> [Marbles.Recorded<Value, PipelineFailure>] {
        try Marbles.events(diagram, values: values, error: ProgramMarbles.noFailure)
    }

    /// Two stages read one `createSignal`: each subscription runs the block again (two `^`), and
    /// each gets 1 at once, then 2 and the completion 200 ms later.
    @Test func eachSubscriptionRunsTheBlockAgain() throws {
        let run = try ProgramMarbles.run(
            """
            s = createSignal { subscriber in
              subscriber.sendNext(1)
              after(200ms) {
                subscriber.sendNext(2)
                subscriber.sendCompleted()
              }
            }
            tens = s.map { $0 * 10 }
            big = s.filter { $0 > 1 }
            """
        )
        #expect(run.subscriptions("s") == ["^-!", "^-!"])
        #expect(run.events("tens") == (try events("a-(b|)", ["a": 10, "b": 20])))
        #expect(run.events("big") == (try events("--(b|)", ["b": 2])))
    }

    /// `take(1)` disposes the subscription at the first value: what the block scheduled is
    /// disposed with it, so its later lines never run.
    @Test func disposingTheSubscriptionCancelsWhatTheBlockScheduled() throws {
        let run = try ProgramMarbles.run(
            """
            s = createSignal { subscriber in subscriber.sendNext(1); after(300ms) { subscriber.sendNext(2) } }
            first = s.take(1)
            """
        )
        #expect(run.events("first") == (try events("(a|)", ["a": 1])))
        #expect(run.subscriptions("s") == ["(^!)"])
    }

    /// `sendError` fails the signal with the message's text; a line after it sends nothing, as a
    /// RAC subscriber ignores what follows a terminal event.
    @Test func sendErrorFailsTheSignal() throws {
        let run = try ProgramMarbles.run(
            """
            s = createSignal { subscriber in
              after(100ms) { subscriber.sendError("boom \\(1 + 1)"); subscriber.sendNext(3) }
            }
            """
        )
        let failure = PipelineFailure(code: "failure", message: "boom 2")
        #expect(run.events("s") == (try Marbles.events("-#", values: [:] as [Character: Value], error: failure)))
    }

    /// Inside a flattening the block reads the outer closure's value.
    @Test func aBlockReadsTheValuesOfTheClosuresAroundIt() throws {
        let run = try ProgramMarbles.run(
            """
            a = marbles("-1--2|")
            out = a.flatMap(.merge) { v in createSignal { subscriber in subscriber.sendNext(v * 10); subscriber.sendCompleted() } }
            """
        )
        #expect(run.events("out") == (try events("-a--b|", ["a": 10, "b": 20])))
    }

    @Test func nestedAftersWaitOneAfterAnother() throws {
        let run = try ProgramMarbles.run(
            "s = createSignal { o in after(100ms) { o.sendNext(1); after(200ms) { o.sendNext(2); o.sendCompleted() } } }"
        )
        #expect(run.events("s") == (try events("-a-(b|)", ["a": 1, "b": 2])))
        let program = PipelineLanguage.parse("s = createSignal { o in after(100ms) { after(200ms) { o.sendCompleted() } } }").program
        #expect(TimeScale.milliseconds(of: program, serviceLatency: .zero) == 300, "the story lasts both waits")
    }

    @Test func aBlockThatDoesAnythingElseIsRefusedWithTheLinesItMayHave() {
        #expect(
            buildErrors("s = createSignal { subscriber in subscriber.sendNext(1); 2 + 2 }")
                == ["a line of `createSignal`'s block sends to its subscriber or schedules lines with `after`"]
        )
        #expect(buildErrors("s = createSignal { just(1) }") == ["`createSignal`'s block names the subscriber it is handed"])
        #expect(
            buildErrors("s = createSignal { o in o.sendNext(o) }") == ["`o` is the subscriber, not a value to send"]
        )
        #expect(
            buildErrors("a = marbles(\"-1|\")\nb = a.map { $0; $0 * 2 }") == ["`map`'s closure is one expression, not several lines"]
        )
        #expect(buildErrors("s = createSignal { o in after(-1s) { o.sendCompleted() } }").count == 1)
    }

    /// The checker takes `after` inside a block, and a cold `createSignal` read twice is warned of
    /// as any source whose subscription is work.
    @Test func theCheckerKnowsBlocks() {
        let diagnostics = PipelineLanguage.check(
            """
            s = createSignal { o in o.sendNext(1); after(1s) { o.sendCompleted() } }
            both = merge(s, s)
            """
        )
        #expect(diagnostics.allSatisfy { $0.severity == .warning }, "\(diagnostics)")
        #expect(diagnostics.contains { $0.message.contains("`s`") }, "the sharing warning names the stream")
        let named = PipelineLanguage.check("after = just(1)\ns = createSignal { o in after(1s) { o.sendCompleted() } }\nt = after.map { $0 }")
        #expect(named.isEmpty, "a stream named `after`, as links kept before blocks may have, still reads: \(named)")
    }

    /// The block's returned disposable is a lane of its own, from the block's run to its
    /// disposal: `take(1)` ends its subscription at once, after 1; the other reader's ends with
    /// the completion the block sends at 200 ms.
    @Test func theReturnedDisposableIsDrawnUntilItIsDisposed() throws {
        let run = try ProgramMarbles.run(
            """
            s = createSignal { subscriber in
                subscriber.sendNext(1)
                after(200ms) { subscriber.sendNext(2); subscriber.sendCompleted() }
                return disposable { }
            }
            first = s.take(1)
            every = s.map { $0 }
            """
        )
        #expect(run.events("first") == [Marbles.Recorded(frame: 0, event: .next(1)), Marbles.Recorded(frame: 0, event: .completed)])
        #expect(run.subscriptions("s·disposable") == ["(^!)", "^-!"], "disposed by take(1), then by the completion")
        #expect(
            buildErrors("s = createSignal { o in return disposable { o.sendCompleted() } }")
                == ["the block's disposable has nothing to clean up here: its disposal is drawn, as the `!` of its lane"]
        )
        #expect(
            buildErrors("s = createSignal { o in return disposable { }; o.sendNext(1) }") == ["the block's disposable is its last line"]
        )
        #expect(buildErrors("a = just(1)\nb = a.map { }") == ["`map`'s closure is empty"])
    }
}
