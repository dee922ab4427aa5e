@testable import Pipelines
import Testing

/// Programs written to break the checker: each must come back with diagnostics, never a trap, a
/// hang or a stack overflow (a trap on a request path would end every session of the server).
@Suite("Pipeline language: hostile programs")
struct HostileProgramTests {
    @Test func tokenSoupNeverTrapsAndEveryDiagnosticIsInsideTheProgram() {
        let pieces = ["a", "b", "input", "=", ":", ".", "map", "filter", "{", "}", "(", ")", "[", "]", "$0", "$99",
                      "\"", "\"x\\(", ")\"", "1", "0.5s", "2min", "9e9", ",", "?", "!", "&&", "||", "+", "-", "in",
                      "\n", "\n.", "//", "é", "😀", "#", "\\", "text", "choice(", "true", "nil", "[:]", "throttle"]
        var generator = SeededGenerator(seed: 20_261_122)
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...40, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
            for diagnostic in Pipeline.check(text) {
                #expect(diagnostic.line >= 1 && diagnostic.line <= lines + 1, "\(text.debugDescription): \(diagnostic)")
                #expect(diagnostic.column >= 1 && diagnostic.endColumn > diagnostic.column)
            }
        }
    }

    @Test func hugeAndDeepProgramsAreRefusedQuickly() {
        let cases = [
            String(repeating: "x", count: 70_000),  // over the size limit
            "a = " + String(repeating: "[", count: 30_000),
            "a = " + String(repeating: "{", count: 30_000),
            "a = just(\"" + String(repeating: "\\(", count: 20_000),
            "a = " + String(repeating: "-", count: 60_000) + "1",
            String(repeating: "a = b\n", count: 10_000),
            "a = just(" + String(repeating: "9", count: 60_000) + ")",
            (0..<5_000).map { "x\($0) = y\($0 + 1).map { $0 }" }.joined(separator: "\n"),
        ]
        for text in cases {
            let clock = ContinuousClock()
            let started = clock.now
            let diagnostics = Pipeline.check(text)
            #expect(!diagnostics.isEmpty)
            #expect(diagnostics.count <= Pipeline.maximumDiagnostics + 1)
            #expect(clock.now - started < .seconds(5), "checking took \(clock.now - started)")
        }
    }

    @Test func aLongUnknownNameGetsNoCostlySuggestion() {
        let name = String(repeating: "q", count: 30_000)
        let diagnostics = Pipeline.check("input query: text\nx = \(name)")
        #expect(diagnostics.contains { $0.message.hasPrefix("unknown name") && $0.hint == "define it as an input or a stream" })
    }
}

/// A small deterministic generator (SplitMix64), so that a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
