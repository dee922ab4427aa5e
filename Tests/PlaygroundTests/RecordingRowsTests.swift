import Scenarios
import Testing

@testable import PlaygroundServer

/// A recording's inputs as rows (``RecordingRows``): the frame chosen, the letters, what is left.
@Suite struct RecordingRowsTests {
    private static func input(_ seq: Int, _ name: String, at t: Double, _ json: String?, kind: EventKind = .next) -> RecordedEvent {
        RecordedEvent(seq: seq, stream: "input:" + name, kind: kind, valueJSON: json, t: t, causes: [], subscription: nil, thread: "session")
    }

    private static let text = [InputDescription(name: "q", kind: .text, description: "")]

    @Test func theFinestFrameKeepsEveryEventInAFrameOfItsOwn() {
        // 0, 130 and 260 ms: 10 ms frames keep them apart and fit 200 characters.
        let rows = RecordingRows(
            events: [Self.input(1, "q", at: 0, "\"a\""), Self.input(2, "q", at: 130, "\"b\""), Self.input(3, "q", at: 260, "\"a\"")],
            inputs: Self.text,
            program: nil
        )
        #expect(rows.frame == 10)
        #expect(rows.inputs.map(\.row) == ["a------------b------------a"])
        #expect(rows.values.map(\.json) == ["\"a\"", "\"b\""])  // a value seen again keeps its letter
    }

    @Test func aLongRecordingTakesACoarserFrame() {
        // 0 and 5 s: 10 ms frames would take 501 characters; 50 ms frames take 101.
        let rows = RecordingRows(
            events: [Self.input(1, "q", at: 0, "\"a\""), Self.input(2, "q", at: 5_000, "\"b\"")],
            inputs: Self.text,
            program: nil
        )
        #expect(rows.frame == 50)
        #expect(rows.inputs[0].row.count == 101)
    }

    @Test func eventsCloserThanTheFinestFrameAreGroupedInOrder() {
        let rows = RecordingRows(
            events: [Self.input(1, "q", at: 100, "\"a\""), Self.input(2, "q", at: 102, "\"b\""), Self.input(3, "q", at: 103, nil, kind: .completed)],
            inputs: Self.text,
            program: nil
        )
        #expect(rows.frame == 10)
        #expect(rows.inputs[0].row == "----------(ab|)")
    }

    @Test func aValueTheLanguageCannotWriteEndsTheRowsAndIsCounted() {
        let rows = RecordingRows(
            events: [Self.input(1, "q", at: 0, "\"ok\""), Self.input(2, "q", at: 10, "\"bell\\u0007\""), Self.input(3, "q", at: 20, "\"ok\"")],
            inputs: Self.text,
            program: "input q: text\nout = q\n"
        )
        #expect(rows.left == 2)
        #expect(rows.leftReason?.contains("control character") == true)
        #expect(rows.program == "q = marbles(\"a\", a: \"ok\", frame: 10ms)\nout = q\n")
    }

    @Test func numbersAreWrittenAsTheLanguageReadsThemAndAnExponentEndsTheRows() {
        let numbers = [InputDescription(name: "n", kind: .number, description: "")]
        let rows = RecordingRows(
            events: [Self.input(1, "n", at: 0, "2.5"), Self.input(2, "n", at: 10, "-3"), Self.input(3, "n", at: 20, "1e+21")],
            inputs: numbers,
            program: "input n: number\n"
        )
        #expect(rows.left == 1)
        #expect(rows.program == "n = marbles(\"ab\", a: 2.5, b: -3, frame: 10ms)\n")
    }
}
