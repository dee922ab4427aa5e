import Benchmark
import CMalloc
import Foundation
import Synchronization

// How the core benchmarks are registered with package-benchmark. Two builds run them
// (run-core-benchmarks.sh):
// - the timing build (the default): wall-clock time of every case, heap bytes per live
//   subscription (5b), and the spellings; malloc is not interposed, so allocation costs what it
//   costs in an application;
// - the counting build (`CORE_BENCHMARKS_MALLOCS=1`, which turns on package-benchmark's
//   `MallocInterposer` trait and defines COUNT_MALLOCS): malloc counts of every case. The
//   interposer adds work to each allocation (OpenCombine's case 4 took 118 ms under it against
//   77 ms without), so its wall times are not reported.

/// A mutable box that closures of every contender may capture (a benchmark runs on one thread).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// `CORE_BENCHMARKS_SCALE` (1 to 1,000; default 1) divides every size, for a quick look.
let scale: Int = {
    guard let text = ProcessInfo.processInfo.environment["CORE_BENCHMARKS_SCALE"] else { return 1 }
    guard let value = Int(text), (1...1_000).contains(value) else {
        fatalError("CORE_BENCHMARKS_SCALE must be a whole number from 1 to 1000, not \(text)")
    }
    return value
}()
let million = 1_000_000 / scale
let hundredThousand = 100_000 / scale

/// How every case runs: after a warm-up, as many runs as fit in two seconds (at least 5, at most
/// 25). A run is one whole case (a million sends, say), so the figures are per run, as in
/// docs/PERFORMANCE.md.
private func caseConfiguration() -> Benchmark.Configuration {
    #if COUNT_MALLOCS
    let metrics: [BenchmarkMetric] = [.mallocCountTotal]
    #else
    let metrics: [BenchmarkMetric] = [.wallClock]
    #endif
    return Benchmark.Configuration(
        metrics: metrics,
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 25
    )
}

/// The checksum each case's contenders agree on, checked as each contender runs.
private let checksums = Mutex<[String: Int]>([:])

private func check(_ checksum: Int, of name: String, _ contender: String) {
    checksums.withLock { known in
        if let expected = known[name] {
            precondition(expected == checksum, "\(name): \(contender)'s checksum \(checksum) differs from \(expected)")
        } else {
            known[name] = checksum
        }
    }
}

/// Registers `run`, one whole run of the case `name` by `contender`, as the benchmark
/// "NAME · CONTENDER".
func record(_ name: String, _ contender: String, _ run: @escaping () -> Int) {
    Benchmark("\(name) · \(contender)", configuration: caseConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let checksum = run()
            check(checksum, of: name, contender)
            blackHole(checksum)
        }
    }
}

/// Heap bytes per live subscription (case 5b): what glibc's allocator has in use after `body`
/// made `hundredThousand` live subscriptions, less before, per subscription. Timing build only:
/// the interposer adds a header to every allocation.
func recordBytes(_ contender: String, _ body: @escaping (Int) -> Any) {
    #if !COUNT_MALLOCS
    let metric = BenchmarkMetric.custom("heap bytes per live subscription", polarity: .prefersSmaller, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [metric],
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 5
    )
    Benchmark("5b bytes per live subscription · \(contender)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let before = rp_heap_bytes_in_use()
            let live = body(hundredThousand)
            let after = rp_heap_bytes_in_use()
            withExtendedLifetime(live) {}
            benchmark.measurement(metric, (Int(after) - Int(before)) / hundredThousand)
        }
    }
    #endif
}

/// The spellings of one operator (goal: each within 1.2× of the fastest of its group) as one
/// benchmark, "S GROUP", with a metric per spelling: its wall-clock nanoseconds a run. Timing
/// build only.
///
/// Each iteration times every spelling once, starting with a different one each time. Run one
/// after another instead (a benchmark per spelling), identical code differed by up to 1.3×, even in
/// a process of its own: what ran before leaves the heap and caches in a state that favours or
/// penalises what runs next. Interleaved, every spelling meets the same states.
///
/// A metric is named by its spelling with each space as a no-break space (U+00A0): the influx
/// export deletes ASCII spaces from metric names, and run-core-benchmarks.sh turns these back.
func spellings(_ group: String, _ contenders: [(name: String, body: () -> Int)]) {
    #if !COUNT_MALLOCS
    let metrics = contenders.map { contender in
        BenchmarkMetric.custom(
            contender.name.replacingOccurrences(of: " ", with: "\u{00A0}"),
            polarity: .prefersSmaller,
            useScalingFactor: false
        )
    }
    let configuration = Benchmark.Configuration(
        metrics: metrics,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 15
    )
    let clock = ContinuousClock()
    let iteration = Box(0)
    Benchmark("S \(group)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let first = iteration.value % contenders.count
            iteration.value += 1
            for offset in contenders.indices {
                let index = (first + offset) % contenders.count
                let contender = contenders[index]
                var checksum = 0
                let elapsed = clock.measure { checksum = contender.body() }
                check(checksum, of: "S \(group)", contender.name)
                blackHole(checksum)
                let (seconds, attoseconds) = elapsed.components
                benchmark.measurement(metrics[index], Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            }
        }
    }
    #endif
}
