import Testing

@testable import PlaygroundServer

/// The classifier of wrong answers (docs/ROOMS.md, "Wrong answers, by what they missed"): hand-made
/// wrong answers to the course's lessons, each with the group a teacher would put it in, worked
/// out by hand from the lesson's rows and its truth.
@Suite("Wrong answers grouped by what they missed")
struct MisconceptionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let lesson: String
        let sources: [String]
        let truth: String
        let answer: String
        let group: Misconception
        var testDescription: String { "\(lesson): \(answer) is \(group.rawValue)" }
    }

    static let skip = (lesson: "1 skip(1)", sources: ["-a--b-c|"], truth: "----b-c|")
    static let filter = (lesson: "2 filter even", sources: ["-1-2-3-4-|"], truth: "---2---4-|")
    static let take = (lesson: "3 take(1)", sources: ["-a-b-c|"], truth: "-(a|)")
    static let delay = (lesson: "4 delay(0.3s)", sources: ["-a-b-|"], truth: "----a-b-|")
    static let throttle = (lesson: "5 throttle(0.2s)", sources: ["-ab----cd-----|"], truth: "----b-----d---|")
    static let cold = (lesson: "8 a cold source subscribed late", sources: ["-a-b|"], truth: "---a-b|")
    static let retry = (lesson: "10 retry(1)", sources: ["-a-#"], truth: "-a--a-#")
    static let sums = (lesson: "13 combineLatest summed", sources: ["-1---2|", "--3-4--|"], truth: "--4-56-|")

    static func cases(_ lesson: (lesson: String, sources: [String], truth: String), _ answers: [(String, Misconception)]) -> [Case] {
        answers.map { Case(lesson: lesson.lesson, sources: lesson.sources, truth: lesson.truth, answer: $0.0, group: $0.1) }
    }

    static let all: [Case] =
        cases(
            skip,
            [("-a--b-c|", .everyValue), ("-----b-c|", .shifted), ("----b-c", .missedTheEnd), ("----b-c-|", .missedTheEnd), ("-a--b|", .other)]
        )
        + cases(
            filter,
            [
                ("-1-2-3-4-|", .everyValue), ("-1---3---|", .other), ("----2---4|", .other), ("---2---4--|", .missedTheEnd),
                ("----2---4-|", .shifted), ("---2---4-", .missedTheEnd),
            ]
        )
        + cases(
            take,
            [
                ("-a-b-c|", .everyValue), ("-a-b|", .keptAfterDisposal), ("-a-b-c", .everyValue), ("-a", .missedTheEnd),
                ("-a|", .missedTheEnd), ("--(a|)", .shifted), ("-a-(b|)", .keptAfterDisposal),
            ]
        )
        + cases(
            delay,
            [("-a-b-|", .everyValue), ("---a-b-|", .shifted), ("----a-b-", .missedTheEnd), ("----a-b|", .missedTheEnd), ("----ab-|", .other)]
        )
        + cases(
            throttle,
            [
                ("-a-----c------|", .firstOfEachBurst), ("-ab----cd-----|", .everyValue), ("---b-----d----|", .other),
                ("----b-----d---", .missedTheEnd), ("-----b-----d---|", .shifted), ("--b-----d-----|", .other),
            ]
        )
        + cases(cold, [("---b|", .sharedWhereCold), ("-a-b|", .everyValue), ("---a-b", .missedTheEnd), ("----a-b|", .shifted), ("---b", .other)])
        + cases(retry, [("-a-#", .everyValue), ("-a--a-|", .missedTheEnd), ("-a-a-#", .other)])
        + cases(sums, [("--4-5-6|", .other), ("--4-56|", .missedTheEnd), ("--1-3-2|", .other)])

    @Test func thereAreThirtyAnswersOverFiveLessonsAndEveryGroup() {
        #expect(Self.all.count >= 30)
        #expect(Set(Self.all.map(\.lesson)).count >= 5)
        #expect(Set(Self.all.map(\.group)) == Set(Misconception.allCases))
    }

    @Test(arguments: all)
    func aWrongAnswerFallsInTheGroupATeacherWouldPutItIn(_ item: Case) throws {
        let read = { (text: String) in try #require(LessonRuns.read(text, letters: [:]), "\(text) is marble notation") }
        let truth = try read(item.truth)
        let answer = try read(item.answer)
        #expect(answer != truth, "a wrong answer")
        let sources = try item.sources.map(read)
        #expect(Misconception.classify(answer, truth: truth, sources: sources) == item.group)
    }
}
