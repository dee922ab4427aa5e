import Foundation
import MicroHTTP
import Testing

@testable import PlaygroundServer

/// `POST /api/marbles`: a marble program run on a virtual clock and drawn, without a session.
@Suite("Marble programs")
struct ProgramDrawingTests {
    let router: Router

    init() throws {
        try self.init(burst: 1_000)
    }

    init(burst: Double) throws {
        router = try TestRouter.make { $0.marbleRuns = ClientRateLimiter(perSecond: 0.001, burst: burst) }  // no refill within a test
    }

    func post(_ body: String, query: [String: String] = [:]) -> (status: Int, json: [String: Any]) {
        let response = TestRouter.respond(router, to: HTTPRequest(method: .post, rawPath: "/api/marbles", query: query, body: Array(body.utf8)))
        return (response.status, TestRouter.json(response))
    }

    func stream(_ answer: [String: Any], _ name: String) -> [String: Any] {
        (answer["streams"] as? [String: Any])?[name] as? [String: Any] ?? [:]
    }

    /// The example of the issue, by hand from RAC's throttle (a debounce): `a` is replaced by `b`
    /// within 0.2 s and `b` sent 0.2 s after it; the same for `c` and `d`; completion at once.
    @Test func throttleIsDrawnAsRACDefinesIt() {
        let (status, answer) = post("a = marbles(\"-ab----cd-----|\", frame: 100ms)\nout = a.throttle(0.2s)\n")
        #expect(status == 200)
        #expect(answer["frame"] as? Double == 100)
        #expect(answer["truncated"] as? Bool == false)
        #expect(answer["order"] as? [String] == ["a", "out"])
        let out = stream(answer, "out")
        #expect(out["marbles"] as? String == "----b-----d---|")
        #expect(out["values"] as? [String: String] == ["b": "b", "d": "d"])
        let events = out["events"] as? [[String: Any]] ?? []
        #expect(events.map { $0["kind"] as? String } == ["next", "next", "completed"])
        #expect(events.map { $0["time"] as? Double } == [400, 1000, 1400])
        #expect(stream(answer, "a")["marbles"] as? String == "-ab----cd-----|")
    }

    /// `rateLimit` lets `c` through at 300 ms, a full interval after `a`; the `b` it held is
    /// replaced, never sent after `c`.
    @Test func rateLimitNeverSendsAnOlderValueAfterANewer() {
        let (status, answer) = post("a = marbles(\"-abc----|\", frame: 100ms)\nout = a.rateLimit(0.2s)\n")
        #expect(status == 200)
        let events = stream(answer, "out")["events"] as? [[String: Any]] ?? []
        #expect(events.map { $0["time"] as? Double } == [100, 300, 800])
        #expect(events.map { $0["value"] as? String } == ["a", "c", nil])
    }

    /// New values take letters no source uses; a value a source's letter sends keeps its letter.
    @Test func outputLettersReuseTheInputsAndOtherwiseTakeFreeOnes() {
        let (_, answer) = post("a = marbles(\"-x-y|\", x: 1, y: 2)\nb = a.map { $0 * 10 }\nc = a.filter { $0 > 1 }\n")
        #expect(stream(answer, "b")["marbles"] as? String == "-a-b|")
        #expect(stream(answer, "b")["values"] as? [String: Int] == ["a": 10, "b": 20])
        #expect(stream(answer, "c")["marbles"] as? String == "---y|")
    }

    /// The answer's frame is the smallest of the program's sources; a stream whose times fall
    /// between its frames is written at one they fall on, and says so: never a frame early.
    @Test func aStreamBetweenTheAnswersFramesIsWrittenAtAFinerOne() {
        // b at 40 ms and a at 50 ms: at 20 ms a frame, a falls between frames 2 and 3.
        let (_, answer) = post("a = marbles(\"-a---|\", frame: 50ms)\nb = marbles(\"--b|\", frame: 20ms)\nboth = merge(a, b)\n")
        #expect(answer["frame"] as? Double == 20)
        #expect(stream(answer, "both")["frame"] as? Double == 10)
        #expect(stream(answer, "both")["marbles"] as? String == "----ba-------------------|")
        #expect((stream(answer, "both")["note"] as? String)?.contains("10 ms a frame") == true)
        #expect(stream(answer, "b")["frame"] as? Double == 20)
        #expect(stream(answer, "b")["note"] == nil)
    }

    /// A stream that never ends stops at `until`, and says so.
    @Test func aRunStopsAtUntilAndSaysItWasTruncated() {
        let (status, answer) = post("t = interval(1s)\n", query: ["until": "3500"])
        #expect(status == 200)
        #expect(answer["truncated"] as? Bool == true)
        #expect(answer["until"] as? Double == 3500)
        #expect((stream(answer, "t")["events"] as? [Any])?.count == 3)
        let quiet = post("n = never\n").json
        #expect(quiet["truncated"] as? Bool == false, "nothing is due: the run ends at once")
    }

    /// A stream of streams: the outer row's letters are diagrams, flattened with `marbles($0)`;
    /// RAC's switchToLatest drops the rest of `x` when `y` comes (by hand: 1, 2, then 4, 5).
    @Test func nestedDiagramsDrawAStreamOfStreams() {
        let (status, answer) = post(
            """
            a = marbles("-x---y---|", x: marbles("-1-2-3|"), y: marbles("-4-5|"))
            out = a.flatMap(.latest) { marbles($0) }
            """
        )
        #expect(status == 200)
        #expect(stream(answer, "a")["values"] as? [String: String] == ["x": "-1-2-3|", "y": "-4-5|"])
        #expect(stream(answer, "out")["marbles"] as? String == "--1-2-4-5|")
        // Each inner signal is a subscription of `out·marbles`: x let go in frame 5, when y came.
        #expect(stream(answer, "out")["sources"] as? [String: [String]] == ["out·marbles": ["-^---!", "-----^---!"]])
        #expect(stream(answer, "a")["sources"] as? [String: [String]] == [:], "a is one source: its subscriptions are its own")
    }

    /// A diagram read at run time that is not notation fails its stream, with what is wrong.
    @Test func aDiagramThatCannotBeReadAtRunTimeFailsItsStream() {
        let (_, answer) = post("a = marbles(\"-x|\", x: \"-(1\")\nout = a.flatMap(.latest) { marbles($0) }\n")
        let events = stream(answer, "out")["events"] as? [[String: Any]] ?? []
        #expect(events.count == 1)
        #expect((events.first?["value"] as? [String: Any])?["code"] as? String == "invalid_marbles")
    }

    @Test func badInputIsAClearError() {
        let invalid = post("x = marbles(\"-a|\").thrtle(1s)")
        #expect(invalid.status == 400)
        let error = invalid.json["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "pipeline_invalid")
        #expect((error["diagnostics"] as? [[String: Any]])?.first?["hint"] as? String == "did you mean `throttle`?")
        for until in ["0", "60001", "-5", "1e3", "abc", "99999999999999999999999"] {
            #expect(post("n = never", query: ["until": until]).status == 400, "until=\(until)")
        }
        #expect(post("a = marbles(\"-a-(b\")").status == 400, "a diagram that does not parse")
    }

    @Test func aClientThatDrawsTooFastIsRefused() throws {
        let limited = try ProgramDrawingTests(burst: 3)
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(limited.post("n = never").status) }
        #expect(statuses.prefix(3).allSatisfy { $0 == 200 })
        #expect(statuses.last == 429)
    }
}
