import Locking
import Reactive

/// An inspector that writes each event as a line, naming objects by the order of their creation
/// (`S1` is the first subscriber, `C1` the first compound disposable, …): what the inspection
/// tests compare.
final class InspectionLog: Inspector {
    private struct State {
        var lines: [String] = []
        var names: [ObjectIdentifier: String] = [:]
        var counts: [String: Int] = [:]
    }
    private let state = Lock(State())
    /// Whether releases are written too (most tests leave them out: when an object is freed
    /// depends on who holds it last, not on RAC's semantics).
    let includesReleases: Bool

    init(includesReleases: Bool = false) {
        self.includesReleases = includesReleases
    }

    /// Every event so far, as lines.
    var lines: [String] { state.withLock { $0.lines } }

    /// The lines that name `object`'s kind of event, for a shorter comparison.
    func lines(containing fragment: String) -> [String] { lines.filter { $0.contains(fragment) } }

    func record(_ event: InspectionEvent) {
        state.withLock { state in
            func name(_ identifier: ObjectIdentifier?) -> String {
                guard let identifier else { return "nil" }
                return state.names[identifier] ?? "?"
            }
            switch event {
            case .created(let object):
                let prefix = Self.prefix(object.kind)
                state.counts[prefix, default: 0] += 1
                let given = "\(prefix)\(state.counts[prefix]!)"
                state.names[object.identifier] = given
                state.lines.append("created \(given) \(object.kind.racClassName)")
            case .added(let child, let owner):
                state.lines.append("\(name(owner)) holds \(name(child))")
            case .removed(let child, let owner):
                state.lines.append("\(name(owner)) lets go of \(name(child))")
            case .swapped(let serial, let old, let new):
                state.lines.append("\(name(serial)) swaps \(name(old)) for \(name(new))")
            case .buffered(let subject, let count):
                state.lines.append("\(name(subject)) buffers \(count)")
            case .disposed(let object):
                state.lines.append("disposed \(name(object))")
            case .labelled(let object, let label):
                state.lines.append("\(name(object)) is \(label)")
            case .released(let object):
                if includesReleases { state.lines.append("released \(name(object))") }
                state.names[object] = nil
            }
        }
    }

    private static func prefix(_ kind: InspectedKind) -> String {
        switch kind {
        case .subscriber: "S"
        case .disposable: "D"
        case .compoundDisposable: "C"
        case .serialDisposable: "SD"
        case .scopedDisposable: "SC"
        case .subject: "Subject"
        case .replaySubject: "Replay"
        case .multicastConnection: "Connection"
        case .channelTerminal: "Terminal"
        }
    }
}
