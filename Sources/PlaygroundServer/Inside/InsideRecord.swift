import Foundation
import Reactive

/// An ``InsideLog`` as a kept run holds it: its objects and changes, compact, bounded in bytes,
/// so that `GET /api/links/{id}/inside` answers a kept run's objects at an instant as a live
/// session's are (docs/API.md, "Recordings"). A log too big for the bound keeps its changes up to
/// the instant where the next would not fit, and says so (`stoppedAt`), as a full log does.
///
/// Each node is `[id, kind, type, created]`, with `[stream, subscription, probe]` after it when
/// labelled; each change `[t, node, op]` with the operation's numbers after it (`added`/`removed`:
/// the owner; `swapped`: old and new, `null` for none; `buffered`: the count).
struct InsideRecord: Codable, Equatable {
    /// The most bytes a kept run's objects take: a fifth of a recording's events' bound.
    static let maximumBytes = 256 << 10

    var nodes: [InsideLog.Node]
    var changes: [InsideLog.Change]
    var stoppedAt: Double?

    /// `log`'s objects and changes, those that fit in `maximumBytes` (encoded).
    init(_ log: InsideLog, maximumBytes: Int = maximumBytes) {
        let (nodes, changes, stoppedAt) = log.snapshot
        let encoder = JSONEncoder()
        var bytes = 64
        var keptChanges: [InsideLog.Change] = []
        var keptNodes = 0
        var stop = stoppedAt
        for change in changes {
            var size = (try? encoder.encode(change).count) ?? 64
            if case .created = change.operation, nodes.indices.contains(change.node - 1) {
                size += (try? encoder.encode(nodes[change.node - 1]).count) ?? 64
            }
            guard bytes + size + 2 <= maximumBytes else {
                stop = change.t
                break
            }
            bytes += size + 2
            if case .created = change.operation { keptNodes = max(keptNodes, change.node) }
            keptChanges.append(change)
        }
        self.nodes = Array(nodes.prefix(keptNodes))
        self.changes = keptChanges
        self.stoppedAt = stop
    }

    /// The record as JSON (`{"nodes", "changes", "stoppedAt"}`).
    var json: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension InsideLog {
    /// A log holding `record`'s objects and changes, as the session's was when it was kept.
    convenience init(record: InsideRecord) {
        self.init(now: { record.changes.last?.t ?? 0 })
        restore(nodes: record.nodes, changes: record.changes, stoppedAt: record.stoppedAt)
    }
}

extension InsideLog.Node: Codable {
    init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        let id = try fields.decode(Int.self)
        guard let kind = InspectedKind(rawValue: try fields.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: fields, debugDescription: "an unknown kind of object")
        }
        let type = try fields.decode(String.self)
        let created = try fields.decode(Double.self)
        var label: InspectionLabel?
        if !fields.isAtEnd {
            let stream = try fields.decode(String.self)
            let subscription = try fields.decode(Int.self)
            let probe = try fields.decode(Bool.self)
            label = probe ? .probe(signal: stream, id: subscription) : .subscription(signal: stream, id: subscription)
        }
        self.init(id: id, kind: kind, type: type, created: created, label: label)
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        try fields.encode(id)
        try fields.encode(kind.rawValue)
        try fields.encode(type)
        try fields.encode(created)
        switch label {
        case .subscription(let signal, let subscription)?:
            try fields.encode(signal)
            try fields.encode(subscription)
            try fields.encode(false)
        case .probe(let signal, let subscription)?:
            try fields.encode(signal)
            try fields.encode(subscription)
            try fields.encode(true)
        case nil: break
        }
    }
}

extension InsideLog.Change: Codable {
    init(from decoder: any Decoder) throws {
        var fields = try decoder.unkeyedContainer()
        let t = try fields.decode(Double.self)
        let node = try fields.decode(Int.self)
        let operation: Operation
        switch try fields.decode(String.self) {
        case "created": operation = .created
        case "added": operation = .added(owner: try fields.decode(Int.self))
        case "removed": operation = .removed(owner: try fields.decode(Int.self))
        case "swapped": operation = .swapped(old: try fields.decodeIfPresent(Int.self), new: try fields.decodeIfPresent(Int.self))
        case "buffered": operation = .buffered(count: try fields.decode(Int.self))
        case "disposed": operation = .disposed
        case "released": operation = .released
        default: throw DecodingError.dataCorruptedError(in: fields, debugDescription: "an unknown change")
        }
        self.init(t: t, node: node, operation: operation)
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.unkeyedContainer()
        try fields.encode(t)
        try fields.encode(node)
        switch operation {
        case .created: try fields.encode("created")
        case .added(let owner):
            try fields.encode("added")
            try fields.encode(owner)
        case .removed(let owner):
            try fields.encode("removed")
            try fields.encode(owner)
        case .swapped(let old, let new):
            try fields.encode("swapped")
            if let old { try fields.encode(old) } else { try fields.encodeNil() }
            if let new { try fields.encode(new) } else { try fields.encodeNil() }
        case .buffered(let count):
            try fields.encode("buffered")
            try fields.encode(count)
        case .disposed: try fields.encode("disposed")
        case .released: try fields.encode("released")
        }
    }
}
