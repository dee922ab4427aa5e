// swift-tools-version:6.0
import PackageDescription

// A package of someone else's, using the `Reactive` library alone (no server, no HTTP): it depends
// on the Reactive Playground package by path, as an app would by URL.
let package = Package(
    name: "ReactiveExamples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "throttled-search", targets: ["ThrottledSearch"])
    ],
    dependencies: [
        .package(name: "ReactivePlayground", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "ThrottledSearch",
            dependencies: [.product(name: "Reactive", package: "ReactivePlayground")]
        )
    ]
)
