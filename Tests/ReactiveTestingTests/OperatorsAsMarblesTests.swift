import Reactive
import ReactiveTesting
import Testing

/// Operators stated as marble diagrams (`Marbles.output(of:)`), each expectation written by hand
/// from RAC 2.x's semantics — the same as the operator gallery's entries. One frame is 100 ms.
@Suite("Operators as marbles")
struct OperatorsAsMarblesTests {
    let ms = Duration.milliseconds

    @Test func throttleIsRACsDebounce() {
        #expect(
            Marbles.output(of: "-ab----cd-----|") { inputs, scheduler in
                inputs[0].throttle(ms(200), on: scheduler)
            } == "----b-----d---|"
        )
        // A value pending at completion is sent; at an error it is dropped.
        #expect(
            Marbles.output(of: "-ab----cd|") { inputs, scheduler in inputs[0].throttle(ms(200), on: scheduler) }
                == "----b----(d|)"
        )
        #expect(
            Marbles.output(of: "-ab----cd#") { inputs, scheduler in inputs[0].throttle(ms(200), on: scheduler) }
                == "----b----#"
        )
    }

    @Test func rateLimitSendsTheFirstAtOnceAndTheLatestAtTheIntervalsEnd() {
        #expect(
            Marbles.output(of: "-ab----cd-----|") { inputs, scheduler in
                inputs[0].rateLimit(ms(200), on: scheduler)
            } == "-a-b---c-d----|"
        )
    }

    @Test func delayMovesValuesAndCompletionButNotAnError() {
        #expect(Marbles.output(of: "-a-b-|") { inputs, scheduler in inputs[0].delay(ms(200), on: scheduler) } == "---a-b-|")
        #expect(Marbles.output(of: "-a-#") { inputs, scheduler in inputs[0].delay(ms(200), on: scheduler) } == "---#")
    }

    @Test func takeCompletesWithItsLastValue() {
        #expect(Marbles.output(of: "-a-b-c-d-|") { inputs, _ in inputs[0].take(2) } == "-a-(b|)")
        #expect(Marbles.output(of: "-a-b-c-|") { inputs, _ in inputs[0].takeLast(2) } == "-------(bc|)")
        #expect(Marbles.output(of: "-a-b-c-d-|") { inputs, _ in inputs[0].skip(2) } == "-----c-d-|")
    }

    @Test func combiningTwoRows() {
        #expect(Marbles.output(of: "-a---b---|", "--x---y|") { inputs, _ in inputs[0].merge(with: inputs[1]) } == "-ax--by--|")
        #expect(Marbles.output(of: "-a-b|", "-x-y|") { inputs, _ in inputs[0].concat(inputs[1]) } == "-a-b-x-y|")
        #expect(Marbles.output(of: "-a-b-c-d-|", "----x|") { inputs, _ in inputs[0].take(until: inputs[1]) } == "-a-b|")
    }

    @Test func takeUntilReplacementIgnoresTheEndOfWhatItReplaces() {
        #expect(
            Marbles.output(of: "-a-b-c-d-|", "----x-y|") { inputs, _ in inputs[0].take(untilReplacement: inputs[1]) } == "-a-bx-y|"
        )
        // Its own completion (frame 2) is ignored: the completion is the replacement's.
        #expect(Marbles.output(of: "-a|", "----x|") { inputs, _ in inputs[0].take(untilReplacement: inputs[1]) } == "-a--x|")
    }

    @Test func errorsCaughtAndRetried() {
        #expect(Marbles.output(of: "-a-#") { inputs, _ in inputs[0].retry(1) } == "-a--a-#")
        #expect(Marbles.output(of: "-a-b-#", "-x-y|") { inputs, _ in inputs[0].catch { _ in inputs[1] } } == "-a-b--x-y|")
    }

    @Test func timeoutCountsFromTheSubscription() {
        #expect(
            Marbles.output(of: "-a-------b|") { inputs, scheduler in
                inputs[0].timeout(after: ms(500), raising: MarbleFailure(), on: scheduler)
            } == "-a---#"
        )
    }

    @Test func distinctUntilChangedDropsRepeats() {
        #expect(Marbles.output(of: "-a-a-b-b-a-|") { inputs, _ in inputs[0].distinctUntilChanged() } == "-a---b---a-|")
    }

    @Test func anInfiniteSourceIsDrawnUntilTheGivenTime() {
        let drawn = Marbles.output(of: "-a", frame: ms(100), until: ms(500)) { inputs, scheduler in
            inputs[0].concat(Signal<String, MarbleFailure>.never)
        }
        #expect(drawn == "-a")
    }
}
