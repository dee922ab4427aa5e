import Testing

@testable import Pipelines

/// A program's time scale (``TimeScale``): its longest chain of waits, which the page fits the
/// diagram's window to.
@Suite("Pipeline language: a program's time scale")
struct TimeScaleTests {
    func scale(_ text: String, latency: Duration = .seconds(1)) -> Int? {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics.map(\.message))")
        return TimeScale.milliseconds(of: program, serviceLatency: latency)
    }

    @Test func waitsAlongAChainAddUpAndAServiceTakesItsLatency() {
        // The search scenario's program: a 0.5 s throttle, then a search of 1 s.
        let search = """
            input query: text
            valid = query.filter { $0.count > 2 }
            throttled = valid.throttle(0.5s)
            results = throttled.flatMap(.latest) { search($0).catch { _ in empty } }
            """
        #expect(scale(search) == 1_500)
        #expect(scale(search, latency: .milliseconds(200)) == 700)
        #expect(scale("input a: text\nb = a.delay(1s).throttle(250ms)") == 1_250)
    }

    @Test func theLongestBranchCountsAcrossWhatAnOperatorReads() {
        #expect(scale("input a: text\nslow = a.delay(2s)\nfast = a.delay(0.1s)\nboth = slow.merge(with: fast)") == 2_000)
        #expect(scale("input a: text\nb = a.flatMap(.merge) { _ in timer(after: 3s) }.delay(1s)") == 4_000)
        #expect(scale("ticks = interval(1s).take(5)") == 1_000)
    }

    @Test func aMarblesRowLastsItsFrames() {
        #expect(scale(#"a = marbles("-a-b|")"#) == 500)
        #expect(scale(#"a = marbles("-a-b|", frame: 20ms).delay(1s)"#) == 1_100)
    }

    @Test func nothingThatWaitsHasNoScale() {
        #expect(scale("input a: text\nb = a.map { $0 + \"!\" }.filter { $0 != \"\" }") == nil)
        #expect(scale("x = just(1)") == nil)
    }
}
