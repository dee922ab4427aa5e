import Foundation
import Reactive

/// A session's RAC objects at one instant, built from its ``InsideLog``: the objects alive then
/// (and those disposed since the instant asked to compare with), what each holds, and the changes
/// between the two instants, each with a line of narration in RAC's terms. What `GET …/inside`
/// answers (docs/API.md, "Inside").
struct InsideGraph: Encodable, Equatable {
    struct Node: Encodable, Equatable {
        let id: Int
        let kind: InspectedKind
        /// The RAC class it stands for (`RACSerialDisposable`).
        let racClass: String
        let type: String
        let created: Double
        /// When it was disposed, if it was by the instant.
        var disposed: Double?
        /// When it was freed (nothing referred to it any more), if it was by the instant.
        var released: Double?
        /// The objects it holds at the instant, in the order it took them.
        var holds: [Int] = []
        /// A replay subject's buffered values at the instant.
        var buffered: Int?
        /// The named stream whose subscription this is (`subscription` its id, as the session's
        /// events number it: the lane from its `^` to its `!`), or whose subscription it watches.
        var stream: String?
        var subscription: Int?
        /// Whether the playground added it to watch `stream`'s subscription: not the program's own.
        var probe: Bool?
    }

    struct Change: Encodable, Equatable {
        let t: Double
        let op: String
        let node: Int
        var owner: Int?
        var old: Int?
        var new: Int?
        var count: Int?
        /// The change in a sentence.
        let narration: String
    }

    /// How a graph is written in an answer: keys sorted, slashes as they are.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The instant (session milliseconds).
    let at: Double
    /// The instant compared with: changes after it and up to `at` are listed.
    let since: Double
    /// Where the log stopped if it filled (``InsideLog/maximumChanges``): nothing after it is known.
    let stoppedAt: Double?
    let nodes: [Node]
    let changes: [Change]

    /// The graph of `log` at `at`, with the changes in (`since`, `at`].
    init(_ log: InsideLog, at: Double, since: Double) {
        let (allNodes, allChanges, stoppedAt) = log.snapshot
        self.at = at
        self.since = since
        self.stoppedAt = stoppedAt
        var replay = Replay()
        var changes: [Change] = []
        for change in allChanges {
            guard change.t <= at else { break }
            replay.apply(change, allNodes.get)
            if change.t > since { changes.append(replay.narrated(change, allNodes.get)) }
        }
        self.nodes = replay.nodes.values
            .filter { ($0.disposed ?? $0.released).map { $0 > since } ?? true }
            .sorted { $0.id < $1.id }
        self.changes = changes
    }

    /// The objects as a log's changes build them, one change at a time: what a graph is made of,
    /// and what narrates each change as it is streamed (``InsideFeed``).
    struct Replay {
        /// The objects so far, disposed ones too, by number.
        private(set) var nodes: [Int: Node] = [:]
        /// Child -> owners, for removing a disposed node's edges.
        private var owners: [Int: [Int]] = [:]

        /// Applies `change`; `node` looks up the log's objects by number.
        mutating func apply(_ change: InsideLog.Change, _ node: (Int) -> InsideLog.Node?) {
            let id = change.node
            switch change.operation {
            case .created:
                guard let node = node(id) else { return }
                var drawn = Node(id: id, kind: node.kind, racClass: node.kind.racClassName, type: node.type, created: node.created)
                switch node.label {
                case .subscription(let signal, let subscription)?: (drawn.stream, drawn.subscription) = (signal, subscription)
                case .probe(let signal, let subscription)?: (drawn.stream, drawn.subscription, drawn.probe) = (signal, subscription, true)
                case nil: break
                }
                nodes[id] = drawn
            case .added(let owner):
                // An owner holds an object once, however many times it was handed it.
                guard nodes[owner]?.disposed == nil, nodes[id]?.disposed == nil,
                    nodes[owner]?.holds.contains(id) == false
                else { break }
                nodes[owner]?.holds.append(id)
                owners[id, default: []].append(owner)
            case .removed(let owner):
                nodes[owner]?.holds.removeAll { $0 == id }
                owners[id]?.removeAll { $0 == owner }
            case .swapped(let old, let new):
                if let old {
                    nodes[id]?.holds.removeAll { $0 == old }
                    owners[old]?.removeAll { $0 == id }
                }
                if let new, nodes[new]?.disposed == nil, nodes[id]?.holds.contains(new) == false {
                    nodes[id]?.holds.append(new)
                    owners[new, default: []].append(id)
                }
            case .buffered(let count):
                nodes[id]?.buffered = count
            case .disposed, .released:
                if case .disposed = change.operation {
                    nodes[id]?.disposed = change.t
                } else {
                    nodes[id]?.released = change.t
                }
                // A disposed or freed object holds nothing and is held by nothing any more.
                for child in nodes[id]?.holds ?? [] { owners[child]?.removeAll { $0 == id } }
                nodes[id]?.holds = []
                for owner in owners[id] ?? [] { nodes[owner]?.holds.removeAll { $0 == id } }
                owners[id] = []
            }
        }

        /// `change`, just applied, with its line of narration.
        func narrated(_ change: InsideLog.Change, _ node: (Int) -> InsideLog.Node?) -> Change {
            InsideGraph.change(change, node, nodes: nodes)
        }
    }

    private static func change(_ change: InsideLog.Change, _ kinds: (Int) -> InsideLog.Node?, nodes: [Int: Node]) -> Change {
        let id = change.node
        let name = Self.name(id, kinds)
        switch change.operation {
        case .created:
            return Change(t: change.t, op: "created", node: id, narration: "\(name) is created.")
        case .added(let owner):
            let sentence: String
            switch (kinds(owner)?.kind, kinds(id)?.kind) {
            case (.subject?, .subscriber?), (.replaySubject?, .subscriber?):
                let count = nodes[owner]?.holds.filter { kinds($0)?.kind == .subscriber }.count ?? 0
                sentence = "\(Self.name(owner, kinds)) gains a subscriber, \(name): it has \(count) now."
            case (.subscriber?, .subscriber?):
                sentence = "\(Self.name(owner, kinds)) subscribed \(name) upstream and holds it: disposing it disposes \(name)."
            default:
                sentence = "\(Self.name(owner, kinds)) holds \(name)."
            }
            return Change(t: change.t, op: "added", node: id, owner: owner, narration: sentence)
        case .removed(let owner):
            let sentence: String
            if kinds(owner)?.kind == .subject || kinds(owner)?.kind == .replaySubject {
                let count = nodes[owner]?.holds.filter { kinds($0)?.kind == .subscriber }.count ?? 0
                sentence = "\(Self.name(owner, kinds)) lets go of \(name): it has \(count) subscriber\(count == 1 ? "" : "s") left."
            } else {
                sentence = "\(Self.name(owner, kinds)) lets go of \(name) without disposing it."
            }
            return Change(t: change.t, op: "removed", node: id, owner: owner, narration: sentence)
        case .swapped(let old, let new):
            let sentence: String
            switch (old, new) {
            case (let old?, let new?) where nodes[id]?.type.hasPrefix("SwitchCore") == true:
                sentence =
                    "switchToLatest's \(name) swapped \(Self.name(old, kinds)) for \(Self.name(new, kinds)): "
                    + "the old inner subscription is disposed before the new one is subscribed."
            case (let old?, let new?):
                sentence = "\(name) swapped \(Self.name(old, kinds)) for \(Self.name(new, kinds))."
            case (nil, let new?):
                sentence = "\(name) holds its first inner subscription, \(Self.name(new, kinds))."
            case (let old?, nil):
                sentence = "\(name) lets go of \(Self.name(old, kinds)) and holds nothing."
            case (nil, nil):
                sentence = "\(name) holds nothing."
            }
            return Change(t: change.t, op: "swapped", node: id, old: old, new: new, narration: sentence)
        case .buffered(let count):
            return Change(
                t: change.t,
                op: "buffered",
                node: id,
                count: count,
                narration: "\(name) buffers \(count) value\(count == 1 ? "" : "s") for its next subscriber."
            )
        case .disposed:
            return Change(t: change.t, op: "disposed", node: id, narration: "\(name) is disposed.")
        case .released:
            let sentence =
                nodes[id]?.disposed == nil
                ? "\(name) is freed without being disposed: nothing refers to it any more."
                : "\(name) is freed: nothing refers to it any more."
            return Change(t: change.t, op: "released", node: id, narration: sentence)
        }
    }

    /// `#4 RACSerialDisposable`, `#7 RACPassthroughSubscriber (results · subscription 3)`: a node
    /// as the narration names it.
    private static func name(_ id: Int, _ kinds: (Int) -> InsideLog.Node?) -> String {
        let name = "#\(id) \(kinds(id)?.kind.racClassName ?? "object")"
        switch kinds(id)?.label {
        case .subscription(let signal, let subscription)?: return "\(name) (\(signal) · subscription \(subscription))"
        case .probe(let signal, let subscription)?: return "\(name) (the playground's probe of \(signal) · \(subscription))"
        case nil: return name
        }
    }
}

extension [InsideLog.Node] {
    /// The node numbered `id` (numbers are 1, 2, 3… in order).
    func get(_ id: Int) -> InsideLog.Node? {
        indices.contains(id - 1) ? self[id - 1] : nil
    }
}
