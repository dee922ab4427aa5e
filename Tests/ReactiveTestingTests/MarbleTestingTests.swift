import Reactive
import ReactiveTesting
import Testing

/// Typed marble tests (`Marbles.cold`, `Marbles.record`, `Marbles.events`), as RxJS's
/// TestScheduler writes them: inputs as cold diagrams with values of any type, the output compared
/// event by event with an expected diagram, subscriptions with subscription diagrams.
@Suite("Typed marble tests")
struct MarbleTestingTests {
    struct Boom: Error, Equatable {}

    @Test func anOperatorOnNumbersIsStatedWithItsValues() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-1-2-3-|", values: ["1": 1, "2": 2, "3": 3], on: scheduler)
        let out = Marbles.record(a.signal.map { $0 * 10 }, on: scheduler)
        #expect(out == (try Marbles.events("-a-b-c-|", values: ["a": 10, "b": 20, "c": 30])))
        #expect(a.subscriptions == ["^------!"])
    }

    @Test func aWrongExpectationDiffers() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-1-2-3-|", values: ["1": 1, "2": 2, "3": 3], on: scheduler)
        let out = Marbles.record(a.signal.map { $0 * 10 }, on: scheduler)
        #expect(out != (try Marbles.events("-a-b-c-|", values: ["a": 10, "b": 20, "c": 31])))  // a value
        #expect(out != (try Marbles.events("-a-b--c|", values: ["a": 10, "b": 20, "c": 30])))  // a time
        #expect(out != (try Marbles.events("-a-b-c-", values: ["a": 10, "b": 20, "c": 30])))  // the end
    }

    /// Cold: each subscription starts the diagram again, its frames counted from the subscription.
    @Test func eachSubscriptionStartsTheDiagramAgain() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-x|", error: Boom(), on: scheduler)
        let late = Signal.timer(after: .milliseconds(300), on: scheduler).promoteError(Boom.self).flatMap(.merge) { _ in a.signal }
        let out = Marbles.record(a.signal.merge(with: late), on: scheduler)
        #expect(out == (try Marbles.events("-x--x|", error: Boom())))
        #expect(a.subscriptions == ["^-!", "---^-!"])
    }

    @Test func takeDisposesOfItsSource() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-a-b-c-|", error: Boom(), on: scheduler)
        let out = Marbles.record(a.signal.take(2), on: scheduler)
        #expect(out == (try Marbles.events("-a-(b|)", error: Boom())))
        #expect(a.subscriptions == ["^--!"])
    }

    @Test func anErrorIsTheGivenFailure() throws {
        let scheduler = TestScheduler()
        let a = try Marbles.cold("-a-#", error: Boom(), on: scheduler)
        let out = Marbles.record(a.signal.retry(1), on: scheduler)
        #expect(out == (try Marbles.events("-a--a-#", error: Boom())))
    }

    @Test func aDiagramThatCannotBeUsedIsAnError() {
        let scheduler = TestScheduler()
        #expect(throws: MarbleDiagramError.noValue("b")) { try Marbles.cold("-a-b|", values: ["a": 1], on: scheduler) }
        #expect(throws: MarbleDiagramError.errorThatCannotHappen) { try Marbles.events("-a-#", values: ["a": 1]) }
        #expect(throws: MarbleDiagramError.notation(.unclosedGroup)) { try Marbles.events("-(a", error: Boom()) }
    }
}
