import Reactive
import ReactiveTesting
import Testing

/// Subscription marbles (`^---!`), as RxJS's marble tests write them, and the subscriptions an
/// operator makes to its inputs, each expectation written by hand from RAC 2.x's semantics.
@Suite("Subscription marbles")
struct SubscriptionMarblesTests {
    @Test(arguments: [
        ("^---!", Marbles.Subscription(subscribed: 0, disposed: 4)),
        ("--^-!", Marbles.Subscription(subscribed: 2, disposed: 4)),
        ("-(^!)", Marbles.Subscription(subscribed: 1, disposed: 1)),
        ("---^", Marbles.Subscription(subscribed: 3, disposed: nil)),
        ("^!", Marbles.Subscription(subscribed: 0, disposed: 1)),
    ])
    func readAndWrittenBack(diagram: String, span: Marbles.Subscription) throws {
        #expect(try Marbles.parseSubscription(diagram) == span)
        #expect(Marbles.renderSubscription(span) == diagram)
    }

    @Test func whatIsNotASubscriptionDiagramIsRefused() {
        #expect(throws: Marbles.SubscriptionParseError.noSubscription) { try Marbles.parseSubscription("---") }
        #expect(throws: Marbles.SubscriptionParseError.unexpected("!", 0)) { try Marbles.parseSubscription("!^") }
        #expect(throws: Marbles.SubscriptionParseError.unexpected("a", 2)) { try Marbles.parseSubscription("^-a") }
        #expect(throws: Marbles.SubscriptionParseError.unexpected("^", 3)) { try Marbles.parseSubscription("^-!^") }
    }

    @Test func takeDisposesItsInputAtItsLastValue() {
        let run = Marbles.run(of: ["-a-b-c-|"]) { inputs, _ in inputs[0].take(2) }
        #expect(run.output == "-a-(b|)")
        #expect(run.subscriptions == [["^--!"]])
    }

    @Test func anInputThatCompletesEndsItsSubscriptionThen() {
        let run = Marbles.run(of: ["-a-b|"]) { inputs, _ in inputs[0].map { $0.uppercased() } }
        #expect(run.subscriptions == [["^---!"]])
    }

    @Test func concatSubscribesToTheSecondWhenTheFirstCompletes() {
        let run = Marbles.run(of: ["-a|", "-b|"]) { inputs, _ in inputs[0].concat(inputs[1]) }
        #expect(run.output == "-a-b|")
        #expect(run.subscriptions == [["^-!"], ["--^-!"]])
    }

    @Test func retrySubscribesAgainAfterEachError() {
        let run = Marbles.run(of: ["-a#"]) { inputs, _ in inputs[0].retry(2) }
        #expect(run.subscriptions == [["^-!", "--^-!", "----^-!"]])
    }

    @Test func aSubscriptionStillLiveAtTheEndHasNoEnd() {
        let run = Marbles.run(of: ["-a-b"], until: .milliseconds(1_000)) { inputs, _ in inputs[0] }
        #expect(run.subscriptions == [["^"]])
    }
}
