/// The command line: `--pause-ms N` (how long typing must pause before a search; default 300)
/// and `--latency-ms N` (how long a search takes; default 50), each from 0 to 10,000.
struct Options {
    var pause: Duration = .milliseconds(300)
    var latency: Duration = .milliseconds(50)

    static let usage = "usage: throttled-search [--pause-ms 0…10000] [--latency-ms 0…10000] < queries"

    struct Problem: Error {
        let message: String
    }

    init(parsing arguments: [String]) throws(Problem) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard flag == "--pause-ms" || flag == "--latency-ms" else { throw Problem(message: "unknown argument \(flag)") }
            guard let text = rest.popFirst(), let milliseconds = Int(text), (0...10_000).contains(milliseconds) else {
                throw Problem(message: "\(flag) needs a whole number of milliseconds from 0 to 10000")
            }
            if flag == "--pause-ms" { pause = .milliseconds(milliseconds) } else { latency = .milliseconds(milliseconds) }
        }
    }
}
