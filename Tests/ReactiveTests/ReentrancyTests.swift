import Dispatch
import Foundation
import Locking
import Testing

@testable import Reactive

/// Every operator that takes a closure lets that closure send back into the operator's source
/// (re-entrancy, which the architecture promises is safe). `scan`, `distinctUntilChanged(_:)` and
/// `skip(while:)` once called their closure under their state lock, so such a send hung for ever
/// (and, with the debug build's error-checking lock, stops the program).
@Suite("Re-entrancy: closures that send into their own source")
struct ReentrancyTests {
    /// Each case builds a pipeline on `source` whose closure, given 1, sends 2 into `source`
    /// (the test sends 0, then 1).
    typealias Case = @Sendable (_ source: Subject<Int, Never>, _ reenter: @escaping @Sendable (Int) -> Void) -> Signal<Int, Never>

    static let cases: [(String, Case)] = [
        (
            "map",
            { source, reenter in
                source.signal.map {
                    reenter($0)
                    return $0
                }
            }
        ),
        (
            "filter",
            { source, reenter in
                source.signal.filter {
                    reenter($0)
                    return true
                }
            }
        ),
        (
            "scan",
            { source, reenter in
                source.signal.scan(0) { total, value in
                    reenter(value)
                    return total + value
                }
            }
        ),
        (
            "distinctUntilChanged",
            { source, reenter in
                source.signal.distinctUntilChanged { a, b in
                    reenter(b)
                    return a == b
                }
            }
        ),
        (
            "skip(while:)",
            { source, reenter in
                source.signal.skip(while: {
                    reenter($0)
                    return $0 == 0
                })
            }
        ),
        (
            "take(while:)",
            { source, reenter in
                source.signal.take(while: {
                    reenter($0)
                    return true
                })
            }
        ),
        (
            "flattenMap",
            { source, reenter in
                source.signal.flattenMap {
                    reenter($0)
                    return .just($0)
                }
            }
        ),
        (
            "concatMap",
            { source, reenter in
                source.signal.concatMap {
                    reenter($0)
                    return .just($0)
                }
            }
        ),
        (
            "flatMap(.latest)",
            { source, reenter in
                source.signal.flatMap(.latest) {
                    reenter($0)
                    return .just($0)
                }
            }
        ),
        ("doNext", { source, reenter in source.signal.doNext { reenter($0) } }),
        (
            "reduceEach",
            { source, reenter in
                source.signal.map { ($0, $0) }.reduceEach { (a: Int, _: Int) in
                    reenter(a)
                    return a
                }
            }
        ),
        (
            "scan(withIndex:)",
            { source, reenter in
                source.signal.scan(
                    0,
                    withIndex: { total, value, _ in
                        reenter(value)
                        return total + value
                    }
                )
            }
        ),
        (
            "combinePrevious",
            { source, reenter in
                source.signal.combinePrevious(0) { _, value in
                    reenter(value)
                    return value
                }
            }
        ),
        (
            "take(until:) closure",
            { source, reenter in
                source.signal.take(until: {
                    reenter($0)
                    return false
                })
            }
        ),
        (
            "skip(until:) closure",
            { source, reenter in
                source.signal.skip(until: {
                    reenter($0)
                    return $0 >= 1
                })
            }
        ),
        (
            "any",
            { source, reenter in
                source.signal.any {
                    reenter($0)
                    return $0 == 2
                }.flatMap(.merge) { _ in Signal.from([1, 2]) }
            }
        ),
        (
            "attemptMap",
            { source, reenter in
                source.signal.attemptMap {
                    reenter($0)
                    return $0
                }
            }
        ),
        (
            "bind",
            { source, reenter in
                source.signal.bind {
                    { value, _ in
                        reenter(value)
                        return .just(value)
                    }
                }
            }
        ),
        (
            "groupBy",
            { source, reenter in
                source.signal.groupBy(
                    {
                        reenter($0)
                        return 0
                    },
                    transform: { $0 }
                ).flatMap(.merge) { $0.signal }
            }
        ),
    ]

    @Test(arguments: cases.map(\.0))
    func aClosureMaySendIntoItsOwnSource(_ name: String) {
        let make = Self.cases.first { $0.0 == name }!.1
        let received = Lock<[Int]>([])
        let finished = DispatchSemaphore(value: 0)
        // On a worker thread, waited for a bounded time: a deadlock fails the test, not the run.
        Thread.detachNewThread {
            let source = Subject<Int, Never>()
            let reentered = Lock(false)
            let signal = make(source) { value in
                guard value == 1 else { return }
                let isFirst = reentered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if isFirst { source.sendNext(2) }  // back into the source, from inside the closure
            }
            let subscription = signal.subscribe(next: { value in received.withLock { $0.append(value) } })
            source.sendNext(0)  // a first value: a comparer only runs from the second one on
            source.sendNext(1)
            subscription.dispose()
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 5) == .success, "\(name) deadlocked when its closure sent into its source")
        #expect(Set(received.withLock { $0 }).isSuperset(of: [1, 2]), "\(name): the value and the one sent from inside arrive")
    }
}
