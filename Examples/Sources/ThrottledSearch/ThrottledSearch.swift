import Dispatch
import Foundation
import Reactive

/// A throttled search over standard input, with `Reactive` alone: each line is a query; a query
/// is searched once typing pauses (RAC's `throttle:`, a debounce), a repeated query is not searched
/// again (`distinctUntilChanged`), and a newer query cancels the search of an older one
/// (`flatMap(.latest)`, RAC's `flattenMap:` + `switchToLatest`). At the end of the input the
/// pending query is still searched, then the program exits.
///
///     printf 'sw\nswi\nswift\n' | swift run --package-path Examples throttled-search
///     swift: Swift, SwiftUI
@main
struct ThrottledSearch {
    static func main() async throws {
        let options: Options
        do {
            options = try Options(parsing: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("error: \(error.message)\n\(Options.usage)\n".utf8))
            exit(2)
        }

        let lines = Subject<String, Never>()
        let scheduler = QueueScheduler(label: "throttled-search")
        let answers = lines.signal
            .map { line in line.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
            .filter { query in query.count >= 2 }
            .throttle(options.pause, on: scheduler)
            .distinctUntilChanged()
            .flatMap(.latest) { query in Languages.search(query, latency: options.latency, on: scheduler) }

        // Subscribed before the first line is read: a subject sends only to the subscribers it has.
        let printed = answers.values
        // Standard input, read on a thread of its own: each line a query, its end the queries' end.
        DispatchQueue.global().async {
            while let line = readLine() { lines.sendNext(line) }
            lines.sendCompleted()
        }
        for try await (query, names) in printed {
            print("\(query): \(names.isEmpty ? "no language" : names.joined(separator: ", "))")
        }
    }
}
