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
        let diagram = try #require(Marbles.render(entries))
        #expect(diagram == "a--(bc)---|")
        #expect(try Marbles.parse(diagram) == entries)
    }

    /// A group takes a frame per character: an event inside its span cannot be written at this
    /// frame, and the writer says so instead of writing it late.
    @Test func anEventInsideAGroupsSpanIsNotWrittenLate() {
        let entries: [Marbles.Entry] = [.init(frame: 1, symbol: "a"), .init(frame: 1, symbol: "b"), .init(frame: 3, symbol: "c")]
        #expect(Marbles.render(entries) == nil)
        #expect(Marbles.render([.init(frame: 2, symbol: "a"), .init(frame: 1, symbol: "b")]) == nil)
    }

    /// The writer and the reader agree on every list of entries: what is written reads back to
    /// exactly the entries it was written from, and a list is refused only when one of its
    /// entries falls inside the span of the group before it.
    @Test func everyWrittenDiagramReadsBackToItsEntries() throws {
        var generator = SeededGenerator(seed: 72)
        for _ in 0..<5_000 {
            var entries: [Marbles.Entry] = []
            var frame = Int.random(in: 0...3, using: &generator)
            var overlaps = false
            var cursor = 0
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let size = Int.random(in: 0...5, using: &generator) == 0 ? Int.random(in: 2...4, using: &generator) : 1
                if frame < cursor { overlaps = true }
                for _ in 0..<size { entries.append(.init(frame: frame, symbol: Marbles.valueSymbols.randomElement(using: &generator)!)) }
                cursor = frame + (size == 1 ? 1 : size + 2)
                frame += Int.random(in: 1...6, using: &generator)
            }
            if Bool.random(using: &generator) {
                if frame < cursor { overlaps = true }
                entries.append(.init(frame: frame, symbol: Bool.random(using: &generator) ? "|" : "#"))
            }
            if Int.random(in: 0...9, using: &generator) == 0, !entries.isEmpty {
                entries.insert(.init(frame: entries[0].frame, symbol: "|"), at: 0)
                overlaps = overlaps || entries.count > 1
            }
            let diagram = Marbles.render(entries)
            #expect((diagram == nil) == overlaps, "\(entries)")
            if let diagram { #expect(try Marbles.parse(diagram) == entries, "\(diagram)") }
        }
    }

    /// Events at times a run on a virtual clock gives (whole milliseconds, groups included) are
    /// written at a frame the writer picks, and read back to their very times.
    @Test func aPickedFrameWritesEveryEventAtItsTime() throws {
        var generator = SeededGenerator(seed: 1_100)
        for _ in 0..<3_000 {
            var rows: [[Marbles.Timed]] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                var time = Double(Int.random(in: 0...10, using: &generator) * 10)
                var row: [Marbles.Timed] = []
                for _ in 0..<Int.random(in: 0...8, using: &generator) {
                    for _ in 0..<(Int.random(in: 0...4, using: &generator) == 0 ? 3 : 1) {
                        row.append(.init(time: time, symbol: Marbles.valueSymbols.randomElement(using: &generator)!))
                    }
                    time += Double([10, 20, 50, 100, 100, 200, 300][Int.random(in: 0...6, using: &generator)])
                }
                if Bool.random(using: &generator) { row.append(.init(time: time, symbol: "|")) }
                rows.append(row)
            }
            let frame = try #require(Marbles.frame(fitting: rows, preferring: 100))
            for row in rows {
                let diagram = try #require(Marbles.render(row, frame: frame))
                let read = try Marbles.parse(diagram).map { Marbles.Timed(time: Double($0.frame) * frame, symbol: $0.symbol) }
                #expect(read == row, "\(diagram) at \(frame) ms")
            }
        }
    }

    /// The preferred frame when it holds every row; a finer one when a group would cover an event.
    @Test func theFrameIsTheFinestNeededAndNoFiner() {
        let sparse: [Marbles.Timed] = [.init(time: 100, symbol: "a"), .init(time: 500, symbol: "b"), .init(time: 800, symbol: "|")]
        #expect(Marbles.frame(fitting: [sparse], preferring: 100) == 100)
        // `a.replay()` read late: a, b and c at 500 ms, completion at 900 ms.
        let replayed: [Marbles.Timed] = [
            .init(time: 500, symbol: "a"), .init(time: 500, symbol: "b"), .init(time: 500, symbol: "c"), .init(time: 900, symbol: "|"),
        ]
        #expect(Marbles.frame(fitting: [replayed], preferring: 100) == 50)
        #expect(Marbles.render(replayed, frame: 50) == "----------(abc)---|")
        // A time between frames is no frame's.
        #expect(Marbles.frame(fitting: [[.init(time: 150, symbol: "a")]], preferring: 100) == 50)
        #expect(Marbles.frame(fitting: [[.init(time: 0.5, symbol: "a")]], preferring: 100) == nil)
        #expect(Marbles.frame(fitting: [sparse], alsoAt: [250], preferring: 100) == 50)
        // A line longer than the bound is refused before it is written.
        #expect(Marbles.frame(fitting: [[.init(time: 60_000, symbol: "a")]], preferring: 1, maximumFrames: 10_000) == nil)
        #expect(Marbles.frame(fitting: [[.init(time: 60_000, symbol: "a")]], preferring: 10, maximumFrames: 10_000) == 10)
    }
}
