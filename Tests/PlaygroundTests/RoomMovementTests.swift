import Testing

@testable import PlaygroundServer

/// How a class moved between two votes (docs/ROOMS.md, "Two votes"), worked by hand.
@Suite("Two votes: how the class moved")
struct RoomMovementTests {
    @Test func theMovesAndTheNormalizedChangeAreCountedOverThoseWhoAnsweredBoth() {
        // Five answered first (2 right); four of them again, and a newcomer who did not vote first.
        let first = [1: true, 2: false, 3: false, 4: false, 5: true]
        let second = [1: true, 2: true, 3: true, 4: false, 6: true]
        let movement = RoomMovement(first: first, second: second)
        #expect((movement.firstAnswered, movement.firstRight) == (5, 2))
        #expect((movement.rightToRight, movement.wrongToRight, movement.rightToWrong, movement.wrongToWrong) == (1, 2, 0, 1))
        // Of the four who answered both: 1 of 4 right before, 3 of 4 after: (0.75 - 0.25) / 0.75.
        #expect(movement.normalizedChange.map { abs($0 - 2.0 / 3.0) < 1e-9 } == true)
    }

    @Test func thereIsNoChangeToMeasureWhenAllWereRightOrNobodyAnsweredTwice() {
        #expect(RoomMovement(first: [1: true, 2: true], second: [1: false, 2: true]).normalizedChange == nil)
        #expect(RoomMovement(first: [1: false], second: [2: true]).normalizedChange == nil)
        // Worse after the discussion is a negative change.
        #expect(RoomMovement(first: [1: true, 2: false], second: [1: false, 2: false]).normalizedChange == -1)
    }
}

/// The report's CSV cells (RFC 4180, and no cell a spreadsheet runs as a formula).
@Suite("The room's report as CSV")
struct RoomReportCSVTests {
    @Test func aCellIsQuotedWhenItMustAndNeverReadAsAFormula() {
        #expect(RoomReport.cell("Ada") == "Ada")
        #expect(RoomReport.cell("-a-b|") == "'-a-b|")
        #expect(RoomReport.cell("Grace, G") == "\"Grace, G\"")
        #expect(RoomReport.cell("=HYPER\"LINK\"") == "\"'=HYPER\"\"LINK\"\"\"")
        #expect(RoomReport.cell("@sum") == "'@sum" && RoomReport.cell("+1") == "'+1")
        #expect(RoomReport.cell("two\nlines") == "\"two\nlines\"")
    }
}
