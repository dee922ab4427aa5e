import CountedCases
import Foundation

// Runs one contender of a core case once, for callgrind to count its instructions
// (run-instruction-counts.sh): `CountInstructions CONTENDER SIZE`, the contender one of the names
// below (case 4b: inner signals the switch must subscribe to), SIZE its outer values, pairs or
// subscriptions. The benchmark binary itself does not run under valgrind (package-benchmark's
// runtime crashes it).

let contenders: [String: (Int) -> Int] = [
    "floor": switchToLatestFloor, "Reactive": switchToLatestReactive, "Reactive-subscribed": switchToLatestReactiveSubscribing,
    "2-floor": { sequenceFloor(count: $0) }, "2-Reactive": { sequenceReactive(count: $0) },
    "3-floor": combineLatestFloor, "3-Reactive": combineLatestReactive,
    "5a-floor": subscribeDisposeFloor, "5a-Reactive": subscribeDisposeReactive, "6-Reactive": fanOutReactive,
]
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let size = Int(arguments.last!), (0...10_000_000).contains(size), let run = contenders[arguments.first!] else {
    let names = contenders.keys.sorted().joined(separator: "|")
    FileHandle.standardError.write(Data("usage: CountInstructions \(names) SIZE (0 to 10000000)\n".utf8))
    exit(2)
}
print(run(size))
