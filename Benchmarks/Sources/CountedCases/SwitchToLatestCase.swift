import Floor
import Reactive

// Case 4 of the core benchmarks (switchToLatest over single-value inner signals) for the floor and
// Reactive, in a module of its own so that two programs run the very same code: CoreBenchmarks
// times it, CountInstructions runs it under callgrind (docs/PERFORMANCE.md, "Where the time and memory go").

/// The floor: each outer value starts an inner source that delivers at once; a newer one
/// supersedes it. Returns the sum of what passed.
public func switchToLatestFloor(outerValues: Int) -> Int {
    let total = Box(0)
    let generation = Box(0)
    let outer = FloorSubject()
    _ = outer.subscribe { value in
        generation.value &+= 1
        let current = generation.value
        floorFrom(value..<(value + 1)) { inner in if current == generation.value { total.value &+= inner } }
    }
    for value in 0..<outerValues { outer.send(value) }
    return total.value
}

/// Reactive: a subject of `Signal.just` values through `switchToLatest()`. Returns the sum of what
/// passed. The switch delivers a `just` signal's value without subscribing to it.
public func switchToLatestReactive(outerValues: Int) -> Int {
    let total = Box(0)
    let outer = Reactive.Subject<Signal<Int, Never>, Never>()
    let subscription = outer.signal.switchToLatest().subscribe(next: { total.value &+= $0 })
    for value in 0..<outerValues { outer.sendNext(.just(value)) }
    subscription.dispose()
    return total.value
}

/// Reactive, with each inner signal made by a subscribe closure that sends one value and completes:
/// what case 4 costs when the switch has to subscribe to every inner signal (case 4b). Returns the
/// sum of what passed.
public func switchToLatestReactiveSubscribing(outerValues: Int) -> Int {
    let total = Box(0)
    let outer = Reactive.Subject<Signal<Int, Never>, Never>()
    let subscription = outer.signal.switchToLatest().subscribe(next: { total.value &+= $0 })
    for value in 0..<outerValues {
        outer.sendNext(
            Signal { inner in
                inner.sendNext(value)
                inner.sendCompleted()
                return nil
            }
        )
    }
    subscription.dispose()
    return total.value
}
