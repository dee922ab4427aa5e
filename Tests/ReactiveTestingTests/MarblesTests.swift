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

    @Test func nothingFollowsTheEndButItsGroupsParenthesis() throws {
        #expect(throws: Marbles.ParseError.afterTheEnd(3)) { try Marbles.parse("-a|b") }
        #expect(throws: Marbles.ParseError.afterTheEnd(3)) { try Marbles.parse("--#-") }
        #expect(try Marbles.parse("-(a|)") == [.init(frame: 1, symbol: "a"), .init(frame: 1, symbol: "|")])
    }

    @Test func spacesTakeNoTimeAnywhere() throws {
        #expect(try Marbles.parse("- a -( b c ) d") == Marbles.parse("-a-(bc)d"))
    }

    /// Which characters are values is the caller's: the pipeline language takes letters and digits.
    @Test func aCallerMayNarrowTheValues() throws {
        let lettersAndDigits: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber) }
        #expect(throws: Marbles.ParseError.notNotation("^", 2)) { try Marbles.parse("-a^b", values: lettersAndDigits) }
        #expect(try Marbles.parse("-a^b").map(\.symbol) == ["a", "^", "b"])
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
