import MarbleNotation
import ReactiveTesting
import Testing

@testable import PlaygroundServer

/// Every diagram `POST /api/marbles` writes reads back, by the notation's one reader and at the
/// frame the stream says it is written at, to exactly the events it was written from: times,
/// kinds and values. A stream too dense for the program's frame is written at a finer one.
@Suite("Diagrams read back as they ran")
struct NotationRoundTripTests {
    /// The stream's diagram read back as (time, kind, value JSON), beside its events as run.
    private static func readBack(_ drawing: ProgramDrawing.Drawing) throws -> (read: [String], ran: [String]) {
        let marbles = try #require(drawing.marbles, "\(drawing.name): \(drawing.note ?? "")")
        let values = Dictionary(drawing.values.map { ($0.letter, $0.json) }) { first, _ in first }
        let read = try Marbles.parse(marbles).map { entry -> String in
            let time = Double(entry.frame) * drawing.frame
            switch entry.symbol {
            case "|": return "\(time) |"
            case "#": return "\(time) #"
            default: return "\(time) \(values[entry.symbol] ?? "?")"
            }
        }
        // A row several subscriptions saw alike is written once: its first subscription's events.
        let writtenOnce = drawing.note?.contains("each seeing these events") == true
        let first = drawing.events.first?.subscription
        let ran = drawing.events.filter { !writtenOnce || $0.subscription == first }.map { event -> String in
            switch event.kind {
            case .completed: "\(event.t) |"
            case .error: "\(event.t) #"
            default: "\(event.t) \(event.valueJSON ?? "?")"
            }
        }
        return (read, ran)
    }

    private static func streams(of program: String) throws -> [ProgramDrawing.Drawing] {
        switch ProgramDrawing.run(program, until: nil) {
        case .success(let answer): return answer.streams
        case .failure(let refusal): throw refusal
        }
    }

    @Test func aMergedFlatteningWrittenAtAFrameThatHoldsItsGroups() throws {
        let streams = try Self.streams(
            of: """
                a = marbles("-a---b--|")
                out = a.flatMap(.merge) { v in marbles("-1-2-(34)-5|") }
                """
        )
        let out = try #require(streams.first { $0.name == "out" })
        // The run: 1 200, 2 400, (3 4 1) 600, 2 800, (3 4) 1000, 5 1100, 5 1500, | 1600.
        #expect(out.events.map(\.t) == [200, 400, 600, 600, 600, 800, 1000, 1000, 1100, 1500, 1600])
        #expect(out.frame < 100)
        #expect(out.note?.contains("100 ms") == true)
        let (read, ran) = try Self.readBack(out)
        #expect(read == ran)
        let a = try #require(streams.first { $0.name == "a" })
        #expect(a.frame == 100 && a.marbles == "-a---b--|")
    }

    @Test func aReplayReadLateKeepsItsCompletionsTime() throws {
        let streams = try Self.streams(
            of: """
                a = marbles("-a-b-c-|")
                shared = a.replay()
                late = timer(after: 0.5s).flatMap(.concat) { _ in shared }
                """
        )
        for drawing in streams {
            let (read, ran) = try Self.readBack(drawing)
            #expect(read == ran, "\(drawing.name): \(drawing.marbles ?? "")")
        }
    }

    /// Programs made of random rows through operators that group and overlap events.
    @Test func generatedProgramsReadBack() throws {
        var generator = SeededGenerator(seed: 2_026)
        let operators = [
            "a.merge(with: b)", "a.flatMap(.merge) { v in b }", "a.flatMap(.concat) { v in b }", "a.flatMap(.latest) { v in b }",
            "a.combineLatest(with: b)", "a.zip(with: b)", "a.startWith(0)", "a.concat(with: b)", "a.delay(0.05s)", "a.buffer(every: 0.3s)",
        ]
        for _ in 0..<150 {
            let rows = (0..<2).map { _ in
                var row = ""
                for _ in 0..<Int.random(in: 1...10, using: &generator) {
                    switch Int.random(in: 0...6, using: &generator) {
                    case 0:
                        row += "(" + String((0..<Int.random(in: 2...3, using: &generator)).map { _ in "123".randomElement(using: &generator)! }) + ")"
                    case 1, 2: row += "-"
                    default: row.append("abc".randomElement(using: &generator)!)
                    }
                }
                return row + (Bool.random(using: &generator) ? "|" : "")
            }
            let program = """
                a = marbles("\(rows[0])")
                b = marbles("\(rows[1])")
                out = \(operators.randomElement(using: &generator)!)
                """
            for drawing in try Self.streams(of: program) {
                // A row subscribed to more than once (inside a flattening) has no one diagram.
                if drawing.marbles == nil, drawing.note?.contains("more than once") == true { continue }
                guard let (read, ran) = try? Self.readBack(drawing) else {
                    Issue.record("\(program)\n\(drawing.name): \(drawing.marbles ?? "") does not read back")
                    continue
                }
                #expect(read == ran, "\(program)\n\(drawing.name): \(drawing.marbles ?? "") at \(drawing.frame) ms")
            }
        }
    }
}
