import Benchmark
import CMalloc
import CountedCases
import Floor
import Foundation
import OpenCombine
import Reactive

// The core benchmarks, run by ordo-one's package-benchmark (Benchmarks/README.md): every case of
// docs/PERFORMANCE.md, each contender (the floor, Reactive, OpenCombine) a benchmark of its own
// named "CASE · CONTENDER", timed with wall-clock percentiles and malloc counts. Every contender of
// a case computes the same checksum (checked), so nothing is optimised away and all do the same
// work. Sizes are read at run time (CORE_BENCHMARKS_SCALE divides them, for a quick look), so the
// compiler cannot specialise on them.

let benchmarks: @Sendable () -> Void = {
    // MARK: 1. hot subject -> map -> filter -> scan -> sink

    record("1 subject map filter scan", "floor") {
        let subject = FloorSubject()
        let total = Box(0)
        let scanned = Box(0)
        let scan: (Int) -> Void = { value in
            scanned.value &+= value
            total.value = scanned.value
        }
        let filter: (Int) -> Void = { value in if value & 1 == 0 { scan(value) } }
        let map: (Int) -> Void = { value in filter(value &* 3) }
        _ = subject.subscribe(map)
        for value in 0..<million { subject.send(value) }
        return total.value
    }
    record("1 subject map filter scan", "Reactive") {
        let subject = Reactive.Subject<Int, Never>()
        let total = Box(0)
        let subscription = subject.signal.map { $0 &* 3 }.filter { $0 & 1 == 0 }.scan(0) { $0 &+ $1 }
            .subscribe(next: { total.value = $0 })
        for value in 0..<million { subject.sendNext(value) }
        subscription.dispose()
        return total.value
    }
    record("1 subject map filter scan", "OpenCombine") {
        let subject = PassthroughSubject<Int, Never>()
        let total = Box(0)
        let cancellable = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.scan(0) { $0 &+ $1 }.sink { total.value = $0 }
        for value in 0..<million { subject.send(value) }
        cancellable.cancel()
        return total.value
    }

    // MARK: 2. cold signal from a sequence -> map -> filter -> sink

    // The floor's and Reactive's bodies are in CountedCases, which CountInstructions runs too.
    record("2 sequence map filter", "floor") { sequenceFloor(count: million) }
    record("2 sequence map filter", "Reactive") { sequenceReactive(count: million) }
    record("2 sequence map filter", "OpenCombine") {
        let total = Box(0)
        _ = Publishers.Sequence<Range<Int>, Never>(sequence: 0..<million).map { $0 &* 3 }.filter { $0 & 1 == 0 }
            .sink { total.value &+= $0 }
        return total.value
    }

    // MARK: 3. combineLatest of two subjects, alternating sends -> map -> sink (OpenCombine has none)

    // The floor's and Reactive's bodies are in CountedCases, which CountInstructions runs too.
    record("3 combineLatest", "floor") { combineLatestFloor(pairs: million / 2) }
    record("3 combineLatest", "Reactive") { combineLatestReactive(pairs: million / 2) }

    // MARK: 4. switchToLatest over single-value inner signals

    record("4 switchToLatest", "floor") { switchToLatestFloor(outerValues: hundredThousand) }
    record("4 switchToLatest", "Reactive") { switchToLatestReactive(outerValues: hundredThousand) }
    record("4 switchToLatest", "OpenCombine") {
        let total = Box(0)
        let outer = PassthroughSubject<Just<Int>, Never>()
        let cancellable = outer.switchToLatest().sink { total.value &+= $0 }
        for value in 0..<hundredThousand { outer.send(Just(value)) }
        cancellable.cancel()
        return total.value
    }

    // MARK: 4b. the same, with inner signals the switch must subscribe to

    // Not a goal of its own: it shows what case 4 costs without the `just` shortcut.
    record("4b switchToLatest subscribed inners", "floor") { switchToLatestFloor(outerValues: hundredThousand) }
    record("4b switchToLatest subscribed inners", "Reactive") {
        switchToLatestReactiveSubscribing(outerValues: hundredThousand)
    }

    // MARK: 5a. subscribe + dispose, one at a time

    record("5a subscribe+dispose", "floor") { subscribeDisposeFloor(count: hundredThousand) }
    record("5a subscribe+dispose", "Reactive") { subscribeDisposeReactive(count: hundredThousand) }
    record("5a subscribe+dispose", "OpenCombine") {
        let subject = PassthroughSubject<Int, Never>()
        for _ in 0..<hundredThousand { subject.sink { _ in }.cancel() }
        return hundredThousand
    }

    // MARK: 5b. heap bytes per live subscription

    recordBytes("floor") { count in
        let subject = FloorSubject()
        return (subject, (0..<count).map { _ in subject.subscribe { _ in } })
    }
    recordBytes("Reactive") { count in
        let subject = Reactive.Subject<Int, Never>()
        return (subject, (0..<count).map { _ in subject.signal.subscribe(next: { _ in }) })
    }
    recordBytes("OpenCombine") { count in
        let subject = PassthroughSubject<Int, Never>()
        return (subject, (0..<count).map { _ in subject.sink { _ in } })
    }

    // MARK: 5c. live subscriptions disposed oldest first, at three sizes (flat per subscription?)

    for count in [hundredThousand / 4, hundredThousand / 2, hundredThousand] {
        func timed(_ contender: String, _ body: @escaping () -> Int) {
            record("5c dispose oldest first \(count)", contender, body)
        }
        timed("floor") {
            let subject = FloorSubject()
            let ids = (0..<count).map { _ in subject.subscribe { _ in } }
            for id in ids { subject.remove(id) }
            return count
        }
        timed("Reactive") {
            let subject = Reactive.Subject<Int, Never>()
            let subscriptions = (0..<count).map { _ in subject.signal.subscribe(next: { _ in }) }
            for subscription in subscriptions { subscription.dispose() }
            return count
        }
        timed("OpenCombine") {
            let subject = PassthroughSubject<Int, Never>()
            let cancellables = (0..<count).map { _ in subject.sink { _ in } }
            for cancellable in cancellables { cancellable.cancel() }
            return count
        }
    }

    // MARK: 6. one subject, 1,000 subscribers, 10,000 sends

    let subscribers = 1_000
    let sends = 10_000 / scale
    record("6 fan-out 1000 x 10000", "floor") {
        let subject = FloorSubject()
        let total = Box(0)
        for _ in 0..<subscribers { _ = subject.subscribe { total.value &+= $0 } }
        for value in 0..<sends { subject.send(value) }
        return total.value
    }
    record("6 fan-out 1000 x 10000", "Reactive") {
        let subject = Reactive.Subject<Int, Never>()
        let total = Box(0)
        let subscriptions = (0..<subscribers).map { _ in subject.signal.subscribe(next: { total.value &+= $0 }) }
        for value in 0..<sends { subject.sendNext(value) }
        for subscription in subscriptions { subscription.dispose() }
        return total.value
    }
    record("6 fan-out 1000 x 10000", "OpenCombine") {
        let subject = PassthroughSubject<Int, Never>()
        let total = Box(0)
        let cancellables = (0..<subscribers).map { _ in subject.sink { total.value &+= $0 } }
        for value in 0..<sends { subject.send(value) }
        for cancellable in cancellables { cancellable.cancel() }
        return total.value
    }

    // MARK: S. every spelling of an operator against its other spellings (goal: each within 1.2× of
    // the fastest): one benchmark "S OPERATOR" each, timing its spellings in turns (`spellings` in
    // Harness.swift says why).

    spellings(
        "switch to latest",
        [
            ("map { .just }.switchToLatest()", { sumThrough(hundredThousand, { $0.map { Signal<Int, Never>.just($0) }.switchToLatest() }, { $0 }) }),
            ("flatMap(.latest) { .just }", { sumThrough(hundredThousand, { $0.flatMap(.latest) { Signal<Int, Never>.just($0) } }, { $0 }) }),
            ("map { .just }.flatten(.latest)", { sumThrough(hundredThousand, { $0.map { Signal<Int, Never>.just($0) }.flatten(.latest) }, { $0 }) }),
        ]
    )
    spellings(
        "merge inner signals",
        [
            ("flattenMap { .just }", { sumThrough(hundredThousand, { $0.flattenMap { Signal<Int, Never>.just($0) } }, { $0 }) }),
            ("flatMap(.merge) { .just }", { sumThrough(hundredThousand, { $0.flatMap(.merge) { Signal<Int, Never>.just($0) } }, { $0 }) }),
            ("map { .just }.flatten(.merge)", { sumThrough(hundredThousand, { $0.map { Signal<Int, Never>.just($0) }.flatten(.merge) }, { $0 }) }),
        ]
    )
    spellings(
        "concat inner signals",
        [
            ("concatMap { .just }", { sumThrough(hundredThousand, { $0.concatMap { Signal<Int, Never>.just($0) } }, { $0 }) }),
            ("flatMap(.concat) { .just }", { sumThrough(hundredThousand, { $0.flatMap(.concat) { Signal<Int, Never>.just($0) } }, { $0 }) }),
            (
                "flatMap(.concurrent(limit: 1))",
                { sumThrough(hundredThousand, { $0.flatMap(.concurrent(limit: 1)) { Signal<Int, Never>.just($0) } }, { $0 }) }
            ),
        ]
    )
    spellings(
        "combine latest of two",
        [
            ("combineLatest(a, b)", { sumOfTwo(million, { Signal<(Int, Int), Never>.combineLatest($0, $1) }, { $0.0 &+ $0.1 }) }),
            ("a.combineLatest(with: b)", { sumOfTwo(million, { $0.combineLatest(with: $1) }, { $0.0 &+ $0.1 }) }),
        ]
    )
    spellings(
        "merge two",
        [
            ("merge([a, b])", { sumOfTwo(million, { Signal.merge([$0, $1]) }, { $0 }) }),
            ("a.merge(with: b)", { sumOfTwo(million, { $0.merge(with: $1) }, { $0 }) }),
        ]
    )
    spellings(
        "zip two",
        [
            ("zip(a, b)", { sumOfTwo(million, { Signal<(Int, Int), Never>.zip($0, $1) }, { $0.0 &+ $0.1 }) }),
            ("a.zip(with: b)", { sumOfTwo(million, { $0.zip(with: $1) }, { $0.0 &+ $0.1 }) }),
        ]
    )
    spellings(
        "concat two",
        [
            ("a.concat(b)", { sumOfTwo(million, { $0.concat($1) }, { $0 }) }),
            (".concat([a, b])", { sumOfTwo(million, { Signal.concat([$0, $1]) }, { $0 }) }),
        ]
    )
    spellings(
        "distinct until changed",
        [
            ("distinctUntilChanged()", { sumThrough(million, { $0.map { $0 / 2 }.distinctUntilChanged() }, { $0 }) }),
            ("distinctUntilChanged(==)", { sumThrough(million, { $0.map { $0 / 2 }.distinctUntilChanged(==) }, { $0 }) }),
        ]
    )
    // The n-ary forms take and send arrays: other operators than the pairs above, not spellings of
    // them. Each is timed next to the pair form for reference, not held to the spelling goal.
    spellings(
        "n-ary combineLatest (reference)",
        [
            ("combineLatest(a, b)", { sumOfTwo(million, { Signal<(Int, Int), Never>.combineLatest($0, $1) }, { $0.0 &+ $0.1 }) }),
            ("combineLatest([a, b])", { sumOfTwo(million, { Signal.combineLatest([$0, $1]) }, { $0[0] &+ $0[1] }) }),
        ]
    )
    spellings(
        "n-ary zip (reference)",
        [
            ("zip(a, b)", { sumOfTwo(million, { Signal<(Int, Int), Never>.zip($0, $1) }, { $0.0 &+ $0.1 }) }),
            ("zip([a, b])", { sumOfTwo(million, { Signal.zip([$0, $1]) }, { $0[0] &+ $0[1] }) }),
        ]
    )
}

/// Sends `count` values into a subject through `pipeline` and sums what arrives.
func sumThrough<Output>(
    _ count: Int,
    _ pipeline: (Signal<Int, Never>) -> Signal<Output, Never>,
    _ value: @escaping @Sendable (Output) -> Int
) -> Int {
    let subject = Reactive.Subject<Int, Never>()
    let total = Box(0)
    let subscription = pipeline(subject.signal).subscribe(next: { total.value &+= value($0) })
    for index in 0..<count { subject.sendNext(index) }
    subscription.dispose()
    return total.value
}

/// Two subjects, alternating sends, through a two-input `pipeline`; sums what arrives.
func sumOfTwo<Output>(
    _ count: Int,
    _ pipeline: (Signal<Int, Never>, Signal<Int, Never>) -> Signal<Output, Never>,
    _ value: @escaping @Sendable (Output) -> Int
) -> Int {
    let a = Reactive.Subject<Int, Never>()
    let b = Reactive.Subject<Int, Never>()
    let total = Box(0)
    let subscription = pipeline(a.signal, b.signal).subscribe(next: { total.value &+= value($0) })
    for index in 0..<(count / 2) {
        a.sendNext(index)
        b.sendNext(index)
    }
    subscription.dispose()
    return total.value
}
