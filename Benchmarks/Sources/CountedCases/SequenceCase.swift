import Floor
import Reactive

// Case 2 of the core benchmarks (a cold signal from a sequence, mapped and filtered), for the
// floor and Reactive, here so that CoreBenchmarks times and CountInstructions counts the very
// same code (docs/PERFORMANCE.md).

/// Case 2, the floor: each value of `0..<count` tripled, the even ones added up.
public func sequenceFloor(count: Int) -> Int {
    let total = Box(0)
    let filter: (Int) -> Void = { value in if value & 1 == 0 { total.value &+= value } }
    floorFrom(0..<count) { value in filter(value &* 3) }
    return total.value
}

/// Case 2, Reactive: `Signal.from(0..<count).map { $0 * 3 }.filter { even }`, the values added up.
public func sequenceReactive(count: Int) -> Int {
    let total = Box(0)
    Signal<Int, Never>.from(0..<count).map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(next: { total.value &+= $0 })
    return total.value
}
