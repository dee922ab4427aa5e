/// The names a program may use besides its own: sources, functions and operators. The
/// interpreter gives each its meaning; the checker uses the names to find misspellings.
enum Vocabulary {
    /// What a stream may start from besides inputs and other streams (`interval(1s)`,
    /// `just(1)`…), including the scenarios' simulated services and the combining functions: the
    /// source table's names (``LanguageSource/all``).
    static let sources: Set<String> = Set(LanguageSource.all.map(\.name))

    /// Operators, called as `stream.operator(…)`: the language's (``LanguageOperator/all``) and
    /// RAC's spellings it takes (``LanguageOperator/racSpellings``), the names of docs/OPERATORS.md a program cannot use (so that the builder can say why), and a
    /// command's members.
    static let operators: Set<String> = Set(LanguageOperator.all.map(\.name))
        .union(LanguageOperator.racSpellings.keys)
        .union(Builder.outsideTheLanguage.keys)
        .union(Builder.commandMembers)
        .union(Builder.connectionWords)
        .union(Builder.terminals)
        .union(["execute"])

    /// The schedulers `deliver(on:)` and `subscribe(on:)` take: the session's own (its run-loop
    /// thread, where inputs arrive and timers fire) and one background queue that every program
    /// shares (so no program can make threads).
    static let schedulers: Set<String> = ["session", "background"]

    /// `after(0.2s) { … }`: lines of a `createSignal` block run later on the session's scheduler
    /// (RAC's `[scheduler afterDelay:schedule:]`); a word of blocks, not a source, and not
    /// reserved: a stream may still be named `after` (links kept before blocks existed do), and
    /// inside a block, where a stream cannot be called, the call is the block word's.
    static let afterBlock = "after"

    /// A `createSignal` block's last line, `return disposable { }`: RAC's
    /// `return [RACDisposable disposableWithBlock:^{ … }]`. Words of blocks, not reserved, as `after`.
    static let disposableBlock = "disposable"
    static let returnWord = "return"

    /// The words only a `createSignal` block knows.
    static let blockWords: Set<String> = [afterBlock, disposableBlock, returnWord]

    /// What a `createSignal` block may do with its subscriber (RAC's `id<RACSubscriber>`).
    static let subscriberActions: Set<String> = ["sendNext", "sendError", "sendCompleted"]

    /// Members of values inside closures besides object fields (`.count`, `.lowercased()`…).
    static let valueMembers: Set<String> = [
        "count", "isEmpty", "lowercased", "uppercased", "contains", "hasPrefix", "hasSuffix", "first", "last",
    ]

    /// Names a program may not define: every name above but a connection's words (the schedulers too), the input kinds' keyword, `advance`
    /// (every virtual-clock session's clock input), and the event-stream events that are not
    /// streams (`session`, `reset`, `end`), so that a stream's events are never mistaken for them.
    static var reserved: Set<String> {
        // A connection's and a channel's words are members only (`a.multicast(…)`, `conn.signal`,
        // `ch.leadingTerminal`), so a stream may still be named `signal` (links kept before
        // connections existed may be).
        sources.union(operators.subtracting(Builder.connectionWords).subtracting(Builder.terminals)).union(schedulers).union([
            "input", "advance", "true", "false", "nil", "null", "in", "session", "reset", "end",
        ])
    }

    /// The closest of `candidates` to `name`, if it is close enough to be a likely misspelling.
    static func suggestion(for name: String, among candidates: Set<String>) -> String? {
        let lowered = name.lowercased()
        let scored = candidates.map { candidate in (candidate, editDistance(lowered, candidate.lowercased())) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) else { return nil }
        // A third of the name may differ (one edit from three letters on): no suggestion for a
        // name of one or two letters, which every other short name is one edit from.
        let allowed = name.count < 3 ? 0 : max(1, min(3, name.count / 3))
        return best.1 <= allowed ? best.0 : nil
    }

    /// Edit distance between two short strings, counting a swap of two neighbours as one edit
    /// (`qurey` is one edit from `query`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
