import Floor
import Reactive

// Cases 3 (combineLatest of two subjects) and 5a (subscribe and dispose) of the core benchmarks,
// for the floor and Reactive, here so that CoreBenchmarks times and CountInstructions counts the
// very same code (docs/PERFORMANCE.md).

/// Case 3, the floor: two sources, the latest of each kept, their sum added up whenever either
/// sends once both have. Returns the total.
public func combineLatestFloor(pairs: Int) -> Int {
    let total = Box(0)
    let latestA = Box<Int?>(nil)
    let latestB = Box<Int?>(nil)
    let a = FloorSubject()
    let b = FloorSubject()
    _ = a.subscribe { value in
        latestA.value = value
        if let other = latestB.value { total.value &+= value &+ other }
    }
    _ = b.subscribe { value in
        latestB.value = value
        if let other = latestA.value { total.value &+= other &+ value }
    }
    for value in 0..<pairs {
        a.send(value)
        b.send(value)
    }
    return total.value
}

/// Case 3, Reactive: `combineLatest` of two subjects, mapped to the pair's sum.
public func combineLatestReactive(pairs: Int) -> Int {
    let total = Box(0)
    let a = Reactive.Subject<Int, Never>()
    let b = Reactive.Subject<Int, Never>()
    let subscription = Signal<(Int, Int), Never>.combineLatest(a.signal, b.signal).map { $0 &+ $1 }
        .subscribe(next: { total.value &+= $0 })
    for value in 0..<pairs {
        a.sendNext(value)
        b.sendNext(value)
    }
    subscription.dispose()
    return total.value
}

/// Case 5a, the floor: an observer added to a source and removed again, `count` times.
public func subscribeDisposeFloor(count: Int) -> Int {
    let subject = FloorSubject()
    for _ in 0..<count { subject.remove(subject.subscribe { _ in }) }
    return count
}

/// Case 5a, Reactive: a subscription to a subject made and disposed, `count` times.
public func subscribeDisposeReactive(count: Int) -> Int {
    let subject = Reactive.Subject<Int, Never>()
    for _ in 0..<count { subject.signal.subscribe(next: { _ in }).dispose() }
    return count
}

/// Case 6, Reactive: `sends` values to 1,000 subscribers of a subject.
public func fanOutReactive(sends: Int) -> Int {
    let subject = Reactive.Subject<Int, Never>()
    let total = Box(0)
    let subscriptions = (0..<1000).map { _ in subject.signal.subscribe(next: { total.value &+= $0 }) }
    for value in 0..<sends { subject.sendNext(value) }
    for subscription in subscriptions { subscription.dispose() }
    return total.value
}
