// swift-tools-version:6.0
import PackageDescription

// REACTIVE_NO_INSPECTION=1 compiles Reactive's inspection hook out (Inspection.swift): the build the
// hook's cost is measured against (Benchmarks/run-inspection-cost.sh), never a build to ship.
let inspectionCompiledOut = Context.environment["REACTIVE_NO_INSPECTION"] != nil

let package = Package(
    name: "ReactivePlayground",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Reactive", targets: ["Reactive"]),
        // Marble diagrams for tests; it re-exports MarbleNotation.
        .library(name: "ReactiveTesting", targets: ["ReactiveTesting"]),
        // The pipeline language and the scenarios' simulated services: what a test written by the
        // page's "Copy as a test" imports.
        .library(name: "Pipelines", targets: ["Pipelines"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "ProgramServices", targets: ["ProgramServices"]),
        .executable(name: "playground", targets: ["Playground"]),
        .executable(name: "microhttp-echo", targets: ["MicroHTTPEcho"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Metrics through the swift-metrics API (any backend), rendered at /metrics by swift-prometheus.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        // SIGTERM/SIGINT and graceful shutdown: the server and the sessions' drain as services.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // `swift package generate-documentation`: the DocC catalogues of Reactive and ReactiveTesting.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The links' store: SQLite through GRDB (docs/ARCHITECTURE.md, "The store").
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The one lock type (a futex word with its state), the one token bucket, and which piece
        // of work a thread is doing: shared by Reactive and MicroHTTP, which must not depend on
        // each other.
        .target(name: "Locking", dependencies: ["CFutex"]),
        // System calls Swift cannot make (syscall is variadic): the futex, the contended path of
        // Locking's mutex; the eventfd that wakes a RunLoopScheduler's thread; and sched_setattr,
        // which gives the playground's program threads a short time slice.
        .target(name: "CFutex"),
        // The count of threads inspecting Reactive's objects, as a C global: read in one load.
        .target(name: "CInspection"),
        // The reactive core: a port of ReactiveCocoa 2.x's semantics. Knows nothing of HTTP.
        .target(
            name: "Reactive",
            dependencies: ["CFutex", "CInspection", "Locking", .product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: inspectionCompiledOut ? [.define("REACTIVE_NO_INSPECTION")] : []
        ),
        // The pipeline language: a program's text parsed, checked and interpreted against
        // Reactive's operators, its values and work bounded. Knows nothing of HTTP.
        .target(name: "Pipelines", dependencies: ["Locking", "MarbleNotation", "Reactive"]),
        // Marble notation (RxJS's), the one reader and writer of it: rows, subscription rows and
        // recorded events, for the pipeline language's `marbles(…)`, the playground's drawings
        // and ReactiveTesting.
        .target(name: "MarbleNotation", dependencies: ["Reactive"]),
        // Marble tests of signals on a virtual clock (cold inputs, recordings, `Marbles.output`):
        // a library for tests, which nothing shipped imports.
        .target(name: "ReactiveTesting", dependencies: ["Locking", "MarbleNotation", "Reactive"]),
        // libmicrohttpd as a Swift module, plus a header-only shim for what Swift cannot call.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // A Swift HTTP server on libmicrohttpd. Knows nothing of signals or scenarios.
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD",
                "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The demo pipelines, built only from Reactive. Knows nothing of HTTP.
        .target(
            name: "Scenarios",
            dependencies: ["Locking", "Reactive"],
            exclude: ["SearchData/README.md", "SearchData/LICENSE-LGPL-2.1"],
            // Each scenario's own file, embedded as text so the page can show the pipeline's source.
            // The .txt names are symlinks to the compiled files: one file, compiled and shown.
            resources: ["Login", "Search", "CommandScenario", "Binding", "Multicast", "Schedulers", "Ticker"]
                .map { Resource.embedInCode("ScenarioSources/\($0).swift.txt") }
                // The search data set (LGPL-2.1+, see SearchData/README.md), also embedded.
                + [.embedInCode("SearchData/language-names.txt")]
        ),
        // The scenarios' simulated services as a program's sources: the bridge between Scenarios
        // and Pipelines, which know nothing of each other.
        .target(name: "ProgramServices", dependencies: ["Pipelines", "Reactive", "Scenarios"]),
        // What people make, kept by links: the store and its schema. Knows nothing of HTTP.
        .target(name: "Store", dependencies: ["CLibPQ", "Locking", .product(name: "GRDB", package: "GRDB.swift")]),
        // libpq, PostgreSQL's C client, as a Swift module: the store shared by several instances.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The app: the JSON + SSE API joining Scenarios and the pipeline language to MicroHTTP, one
        // folder and one route group per feature, and the flags that build it.
        .target(
            name: "PlaygroundServer",
            dependencies: [
                "CFutex",
                "Locking",
                "MarbleNotation",
                "MicroHTTP",
                "Pipelines",
                "ProgramServices",
                "Reactive",
                "Scenarios",
                "Store",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The executable: the command line's door to PlaygroundServer, nothing more.
        .executableTarget(
            name: "Playground",
            dependencies: ["PlaygroundServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // A minimal server on MicroHTTP alone, for the load benchmark against a Node.js peer.
        .executableTarget(
            name: "MicroHTTPEcho",
            dependencies: [
                "MicroHTTP",
                "Locking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "ReactiveTests", dependencies: ["Locking", "Reactive", "ReactiveTesting"]),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: [
                "CMicroHTTPD",
                "MicroHTTP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .testTarget(name: "ScenariosTests", dependencies: ["Locking", "Reactive", "Scenarios"]),
        .testTarget(
            name: "PlaygroundTests",
            dependencies: [
                "Locking",
                "MarbleNotation",
                "MicroHTTP",
                "Pipelines",
                "PlaygroundServer",
                "Reactive",
                "ReactiveTesting",
                "Scenarios",
                "Store",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ReactiveTestingTests", dependencies: ["Reactive", "ReactiveTesting"]),
        .testTarget(name: "PipelinesTests", dependencies: ["Locking", "Pipelines", "Reactive", "ReactiveTesting"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
