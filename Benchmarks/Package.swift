// swift-tools-version:6.0
// The core benchmarks: Reactive against OpenCombine and a hand-written floor, in release builds.
// A package of its own so that OpenCombine stays out of the main package.
import Foundation
import PackageDescription

// A path dependency is named after its folder, which differs between clones.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "ReactiveBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "Reactive", package: rootIdentity),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "Floor",
                "CMalloc",
            ]
        ),
        // The floor lives in a module of its own, so the optimizer cannot fuse its closure chain
        // with the benchmark loop into one straight loop.
        .target(name: "Floor"),
        .systemLibrary(name: "CMalloc"),
    ],
    swiftLanguageModes: [.v6]
)
