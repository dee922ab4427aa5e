import Reactive
import Scenarios

/// A condition on a session's RAC objects that stops its virtual clock (docs/API.md,
/// "Breakpoints"): a serial disposable swaps, an object is disposed, a value enters a replay
/// subject's buffer, something is added to an object (a subject gains a subscriber, a compound
/// disposable a disposable), or a stream's `count`th subscriber reaches it (a cold signal
/// subscribed again: RAC runs its work once per subscriber).
struct Breakpoint: Sendable, Equatable {
    enum Condition: Sendable, Equatable {
        case swapped(node: Int)
        case disposed(node: Int)
        case buffered(node: Int)
        case added(node: Int)
        case subscribed(stream: String, count: Int)
    }

    let condition: Condition

    /// The most breakpoints a session holds.
    static let maximumCount = 16
    /// The longest stream name a breakpoint names, in UTF-8 bytes (a program's names are shorter).
    static let maximumStreamBytes = 256
    /// The largest object number or subscription count a breakpoint names.
    static let maximumNumber = 1_000_000_000

    /// Whether `change` of the log meets this condition (a stream's subscriptions are counted by
    /// the log: ``InsideLog``).
    func isMet(by change: InsideLog.Change) -> Bool {
        switch (condition, change.operation) {
        case (.swapped(let node), .swapped): node == change.node
        case (.disposed(let node), .disposed): node == change.node
        case (.buffered(let node), .buffered): node == change.node
        case (.added(let node), .added(let owner)): node == owner
        default: false
        }
    }

    /// The breakpoint as the API writes it: `{"on": "swapped", "node": 17}`, `{"on": "subscribed", "stream": "r", "count": 2}`.
    var json: JSONValue {
        switch condition {
        case .swapped(let node): .object(["on": .string("swapped"), "node": .int(node)])
        case .disposed(let node): .object(["on": .string("disposed"), "node": .int(node)])
        case .buffered(let node): .object(["on": .string("buffered"), "node": .int(node)])
        case .added(let node): .object(["on": .string("added"), "node": .int(node)])
        case .subscribed(let stream, let count): .object(["on": .string("subscribed"), "stream": .string(stream), "count": .int(count)])
        }
    }

    /// Reads one breakpoint of a request's body, or says what is wrong with it.
    static func read(_ value: JSONValue) -> Result<Breakpoint, PlaygroundError> {
        guard case .object(let fields) = value, case .string(let on) = fields["on"] else {
            return .failure(invalid("Each breakpoint is an object with \"on\": swapped, disposed, buffered, added or subscribed."))
        }
        func number(_ key: String, default fallback: Int? = nil) -> Int? {
            guard let field = fields[key] else { return fallback }
            guard case .int(let value) = field, (1...maximumNumber).contains(value) else { return nil }
            return value
        }
        switch on {
        case "swapped", "disposed", "buffered", "added":
            guard Set(fields.keys).isSubset(of: ["on", "node"]) else { return .failure(invalid("A breakpoint on \(on) takes \"node\" only.")) }
            guard let node = number("node") else {
                return .failure(invalid("\"node\" is the number of an object (1 to \(maximumNumber)), as GET …/inside numbers them."))
            }
            let condition: Condition =
                switch on {
                case "swapped": .swapped(node: node)
                case "disposed": .disposed(node: node)
                case "buffered": .buffered(node: node)
                default: .added(node: node)
                }
            return .success(Breakpoint(condition: condition))
        case "subscribed":
            guard Set(fields.keys).isSubset(of: ["on", "stream", "count"]) else {
                return .failure(invalid("A breakpoint on subscribed takes \"stream\" and \"count\" only."))
            }
            guard case .string(let stream) = fields["stream"], !stream.isEmpty, stream.utf8.count <= maximumStreamBytes else {
                return .failure(invalid("\"stream\" is the name of one of the session's streams (at most \(maximumStreamBytes) bytes)."))
            }
            guard let count = number("count", default: 2) else {
                return .failure(invalid("\"count\" is which subscription stops the clock: 1 to \(maximumNumber) (2, the second, by default)."))
            }
            return .success(Breakpoint(condition: .subscribed(stream: stream, count: count)))
        default:
            return .failure(invalid("\"on\" is swapped, disposed, buffered, added or subscribed, not \(on.prefix(40))."))
        }
    }

    private static func invalid(_ message: String) -> PlaygroundError { PlaygroundError(.invalidValue, message) }
}

/// Where a session's clock stopped: breakpoint `index` of its list met at `t` by change `change`
/// of its Inside log (its object `node`, `op` as `GET …/inside` names it).
struct BreakpointHit: Sendable, Equatable {
    let index: Int
    let t: Double
    let node: Int
    let op: String

    var json: JSONValue {
        .object(["breakpoint": .int(index), "t": .double(t), "node": .int(node), "op": .string(op)])
    }

    /// `t` as a person reads it: `330`, `330.5` (a session's time is at most an hour: it fits an `Int`).
    var time: String { t == t.rounded() ? String(Int(t)) : String(t) }
}

/// The breakpoints of an ``InsideLog``, under its lock: each change is checked against them while
/// none has been met, and each stream's subscriptions are counted for `subscribed`.
struct BreakpointState {
    var list: [Breakpoint] = [] {
        didSet { announced = false }
    }
    var hit: BreakpointHit? {
        didSet { if hit == nil { announced = false } }
    }
    var announced = false
    /// How many subscriptions each named stream has had (its subscribers, not the probes).
    private var subscriptions: [String: Int] = [:]

    mutating func check(_ change: InsideLog.Change) {
        guard hit == nil, !list.isEmpty, let index = list.firstIndex(where: { $0.isMet(by: change) }) else { return }
        let op: String =
            switch change.operation {
            case .swapped: "swapped"
            case .disposed: "disposed"
            case .buffered: "buffered"
            default: "added"
            }
        hit = BreakpointHit(index: index, t: change.t, node: change.node, op: op)
    }

    mutating func subscribed(_ stream: String, node: Int, at t: Double) {
        let count = subscriptions[stream, default: 0] + 1
        subscriptions[stream] = count
        guard hit == nil, !list.isEmpty else { return }
        let index = list.firstIndex { $0.condition == .subscribed(stream: stream, count: count) }
        if let index { hit = BreakpointHit(index: index, t: t, node: node, op: "subscribed") }
    }
}
