import Testing

@testable import MicroHTTP

/// When the heap trimmer trims: after releases pause, or at the latest a while after the first.
@Suite("Heap trim schedule")
struct TrimScheduleTests {
    private let second: UInt64 = 1_000_000_000

    private func schedule() -> TrimSchedule {
        TrimSchedule(quietPeriod: second, longestDelay: 10 * second)
    }

    @Test func nothingIsTrimmedWithoutARelease() {
        var schedule = schedule()
        let trimmed = schedule.takeTrimIfDue(at: 100 * second)
        #expect(!trimmed)
    }

    @Test func aTrimFollowsAPauseInReleasesAndOnlyOne() {
        var schedule = schedule()
        schedule.noteRelease(at: 5 * second)
        schedule.noteRelease(at: 5 * second + second / 2)
        let trims = [6 * second, 6 * second + second / 2, 20 * second].map { schedule.takeTrimIfDue(at: $0) }
        // Half a second after the last release; a second after it; and no release since that trim.
        #expect(trims == [false, true, false])
    }

    @Test func releasesWithoutAPauseAreTrimmedAtTheLongestDelay() {
        var schedule = schedule()
        var trims: [UInt64] = []
        // A release every 100 ms for 25 s, checked every 200 ms.
        for tenth in UInt64(0)..<250 {
            schedule.noteRelease(at: tenth * second / 10)
            let now = tenth * second / 10 + second / 20
            if tenth % 2 == 0, schedule.takeTrimIfDue(at: now) { trims.append(now / second) }
        }
        #expect(trims == [10, 20])
    }

    @Test func aReleaseNotedAfterTheCheckReadItsClockDoesNotTrap() {
        var schedule = schedule()
        schedule.noteRelease(at: 9 * second)
        // Another thread's clock ran ahead of the checking thread's.
        let early = schedule.takeTrimIfDue(at: 8 * second)
        schedule.noteRelease(at: 3 * second)
        let late = schedule.takeTrimIfDue(at: 10 * second)
        #expect(!early && late)
    }

    @Test func aRequestedTrimIsTakenAtOnceButAtMostOncePerLongestDelay() {
        var schedule = schedule()
        schedule.requestTrim()
        let first = schedule.takeTrimIfDue(at: 50 * second)
        schedule.requestTrim()
        let tooSoon = schedule.takeTrimIfDue(at: 55 * second)
        let later = schedule.takeTrimIfDue(at: 60 * second)
        #expect(first && !tooSoon && later, "the request waits, then is taken")
        // Releases still follow their own schedule meanwhile.
        schedule.requestTrim()
        _ = schedule.takeTrimIfDue(at: 61 * second)
        schedule.noteRelease(at: 62 * second)
        let released = schedule.takeTrimIfDue(at: 63 * second)
        #expect(released)
    }
}
