import ReactiveTesting
import Testing

@Suite("Marble diagrams")
struct MarblesTests {
    @Test func parsesFramesValuesAndTerminals() throws {
        let entries = try Marbles.parse("-a--b-|")
        #expect(entries == [.init(frame: 1, symbol: "a"), .init(frame: 4, symbol: "b"), .init(frame: 6, symbol: "|")])
        #expect(try Marbles.parse("--#") == [.init(frame: 2, symbol: "#")])
    }

    @Test func groupsShareAFrameAndAdvanceByTheirLength() throws {
        // As in RxJS: "-(ab)-c" puts a and b at frame 1, and c at 1 + 4 + 1 = 6.
        let entries = try Marbles.parse("-(ab)-c")
        #expect(entries == [.init(frame: 1, symbol: "a"), .init(frame: 1, symbol: "b"), .init(frame: 6, symbol: "c")])
    }

    @Test func rejectsBrokenGroups() {
        #expect(throws: Marbles.ParseError.unclosedGroup) { try Marbles.parse("-(ab") }
        #expect(throws: Marbles.ParseError.misplacedParenthesis(1)) { try Marbles.parse("-)") }
        #expect(throws: Marbles.ParseError.misplacedParenthesis(1)) { try Marbles.parse("((a))") }
    }

    @Test func renderThenParseRoundTrips() throws {
        let entries: [Marbles.Entry] = [
            .init(frame: 0, symbol: "a"), .init(frame: 3, symbol: "b"),
            .init(frame: 3, symbol: "c"), .init(frame: 10, symbol: "|"),
        ]
        let diagram = Marbles.render(entries)
        #expect(diagram == "a--(bc)---|")
        #expect(try Marbles.parse(diagram) == entries)
    }
}
