import Foundation
import SwitchToLatestCase

// Runs one contender of core case 4 once, for callgrind to count its instructions
// (run-instruction-counts.sh): `CountInstructions floor|Reactive|Reactive-subscribed OUTER_VALUES`
// (the last is case 4b: inner signals the switch must subscribe to). The benchmark
// binary itself does not run under valgrind (package-benchmark's runtime crashes it).

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let count = Int(arguments.last!), (0...10_000_000).contains(count),
    let run = [
        "floor": switchToLatestFloor, "Reactive": switchToLatestReactive,
        "Reactive-subscribed": switchToLatestReactiveSubscribing,
    ][arguments.first!]
else {
    FileHandle.standardError.write(Data("usage: CountInstructions floor|Reactive|Reactive-subscribed OUTER_VALUES (0 to 10000000)\n".utf8))
    exit(2)
}
print(run(count))
