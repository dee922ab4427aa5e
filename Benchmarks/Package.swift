// swift-tools-version:6.1
// The core benchmarks: Reactive against OpenCombine and a hand-written floor, in release builds.
// A package of its own so that OpenCombine stays out of the main package.
import Foundation
import PackageDescription

// A path dependency is named after its folder, which differs between clones.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// CORE_BENCHMARKS_MALLOCS=1 builds the counting variant: package-benchmark's malloc interposer on,
// and COUNT_MALLOCS defined (CoreBenchmarks/Harness.swift says why times and counts are two builds).
let countMallocs = Context.environment["CORE_BENCHMARKS_MALLOCS"] != nil

let package = Package(
    name: "ReactiveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        // ordo-one's package-benchmark: percentiles, malloc counts (its MallocInterposer), baselines.
        // Traits named here replace its defaults, so its Swift runtime interposer stays off too.
        .package(
            url: "https://github.com/ordo-one/benchmark",
            from: "1.38.0",
            traits: countMallocs ? ["MallocInterposer"] : []
        ),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Reactive", package: rootIdentity),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Benchmark", package: "benchmark"),
                "Floor",
                "CMalloc",
                "CountedCases",
            ],
            // package-benchmark's plugin makes a benchmark target's main when its folder is in a
            // folder named Benchmarks: this package's own.
            path: "CoreBenchmarks",
            swiftSettings: countMallocs ? [.define("COUNT_MALLOCS")] : [],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The floor lives in a module of its own, so the optimizer cannot fuse its closure chain
        // with the benchmark loop into one straight loop.
        .target(name: "Floor"),
        // The floor and Reactive contenders of cases 3, 4, 4b and 5a, shared by CoreBenchmarks and
        // CountInstructions, which runs one of them for callgrind (run-instruction-counts.sh).
        .target(name: "CountedCases", dependencies: [.product(name: "Reactive", package: rootIdentity), "Floor"]),
        .executableTarget(name: "CountInstructions", dependencies: ["CountedCases"]),
        .systemLibrary(name: "CMalloc"),
    ],
    swiftLanguageModes: [.v6]
)
