import Foundation

/// A mutable box that closures of every contender may capture (the benchmark is single-threaded).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// One measured figure.
struct Figure: Codable {
    let benchmark: String
    let contender: String
    /// Median seconds per run, or bytes for memory cases.
    let value: Double
    let unit: String
    let checksum: Int
}

/// Runs `body` once to warm up, then `runs` times, and returns the median time and the checksum
/// (which must be the same every run).
func measure(runs: Int = 5, _ body: () -> Int) -> (seconds: Double, checksum: Int) {
    let checksum = body()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        let result = body()
        let elapsed = ContinuousClock.now - start
        precondition(result == checksum, "a contender's checksum changed between runs")
        times.append(Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds))
    }
    return (times.sorted()[times.count / 2], checksum)
}
