import Locking
import Reactive

/// What a session's RAC objects did, as `Reactive`'s inspection hook told it (``Inspection``): the
/// source of `GET …/inside` (docs/API.md, "Inside"). The session runs its work under this
/// inspector, so every subscriber, disposable, subject and connection its pipeline builds — and
/// every change of what holds what — is kept here with the session's time.
///
/// Objects get small numbers in the order they are created (an `ObjectIdentifier` may be used
/// again once an object is freed; a number never is). Bounded: after ``maximumChanges`` changes
/// the log stops and says where (``stoppedAt``), so that no pipeline's churn costs the server more.
/// Thread-safe: the session's thread and the threads it schedules work on report here under one lock.
final class InsideLog: Inspector {
    /// The most changes a session keeps by default (`--inside-changes`), in about 1.6 MB — under
    /// its events' 4 MiB. The search scenario typed and stepped as the Inside benchmark does fills
    /// them at about its 2,000th event (docs/PERFORMANCE.md, "The Inside panel drawn").
    static let maximumChanges = 20_000

    /// One object, as created.
    struct Node: Sendable, Equatable {
        let id: Int
        let kind: InspectedKind
        /// Its Swift type, shared among the nodes of one type.
        let type: String
        let created: Double
        /// What it is to the session: a stage's subscription, or the playground's probe of one.
        var label: InspectionLabel?
    }

    /// One change, at a session time in milliseconds.
    struct Change: Sendable, Equatable {
        enum Operation: Sendable, Equatable {
            case created
            case added(owner: Int)
            case removed(owner: Int)
            case swapped(old: Int?, new: Int?)
            case buffered(count: Int)
            case disposed
            case released
        }
        let t: Double
        /// The object changed: the child added or removed, the serial disposable swapping, the
        /// subject buffering, the object created or disposed.
        let node: Int
        let operation: Operation
    }

    private struct State {
        var numbers: [ObjectIdentifier: Int] = [:]
        var nodes: [Node] = []
        var changes: [Change] = []
        var types: Set<String> = []
        var stoppedAt: Double?
        var breakpoints = BreakpointState()
    }
    private let state = Lock(State())
    /// The session's time now, in milliseconds.
    let now: @Sendable () -> Double
    private let capacity: Int

    /// A log whose changes are stamped with `now()`, session milliseconds.
    init(capacity: Int = maximumChanges, now: @escaping @Sendable () -> Double) {
        self.capacity = capacity
        self.now = now
    }

    /// The objects and changes so far, and where the log stopped if it is full.
    var snapshot: (nodes: [Node], changes: [Change], stoppedAt: Double?) {
        state.withLock { ($0.nodes, $0.changes, $0.stoppedAt) }
    }

    /// How many changes are kept so far.
    var changeCount: Int { state.withLock { $0.changes.count } }

    /// Applies the changes numbered `start + 1` through `end` (default: the last) to `replay` and
    /// answers them narrated, with their numbers, unless only `skipping` them; and the number of
    /// the last change applied. Under the log's lock, so that no change is half reported.
    func narrate(
        from start: Int,
        to end: Int? = nil,
        into replay: inout InsideGraph.Replay,
        skipping: Bool = false
    ) -> (changes: [(n: Int, change: InsideGraph.Change)], through: Int) {
        state.withLock { state in
            let end = min(end ?? state.changes.count, state.changes.count)
            guard start < end else { return ([], max(start, 0)) }
            var narrated: [(n: Int, change: InsideGraph.Change)] = []
            let nodes = state.nodes
            for index in max(start, 0)..<end {
                replay.apply(state.changes[index], nodes.get)
                if !skipping { narrated.append((index + 1, replay.narrated(state.changes[index], nodes.get))) }
            }
            return (narrated, end)
        }
    }

    /// Puts back what a kept run recorded (``InsideRecord``): for a log made to read, not to record.
    func restore(nodes: [Node], changes: [Change], stoppedAt: Double?) {
        state.withLock { state in
            state.nodes = nodes
            state.changes = changes
            state.stoppedAt = stoppedAt
        }
    }

    func record(_ event: InspectionEvent) {
        let t = now()
        state.withLock { state in
            guard state.stoppedAt == nil else { return }
            guard state.changes.count < capacity else {
                state.stoppedAt = t
                return
            }
            switch event {
            case .created(let object):
                let id = state.nodes.count + 1
                state.numbers[object.identifier] = id
                // One copy of each type's name, however many objects have it.
                let type = state.types.insert(object.typeName).memberAfterInsert
                state.nodes.append(Node(id: id, kind: object.kind, type: type, created: t))
                Self.append(&state, Change(t: t, node: id, operation: .created))
            case .added(let child, let owner):
                guard let child = state.numbers[child], let owner = state.numbers[owner] else { return }
                Self.append(&state, Change(t: t, node: child, operation: .added(owner: owner)))
            case .removed(let child, let owner):
                guard let child = state.numbers[child], let owner = state.numbers[owner] else { return }
                Self.append(&state, Change(t: t, node: child, operation: .removed(owner: owner)))
            case .swapped(let serial, let old, let new):
                guard let serial = state.numbers[serial] else { return }
                let old = old.flatMap { state.numbers[$0] }
                let new = new.flatMap { state.numbers[$0] }
                Self.append(&state, Change(t: t, node: serial, operation: .swapped(old: old, new: new)))
            case .buffered(let subject, let count):
                guard let subject = state.numbers[subject] else { return }
                Self.append(&state, Change(t: t, node: subject, operation: .buffered(count: count)))
            case .disposed(let object):
                guard let object = state.numbers[object] else { return }
                Self.append(&state, Change(t: t, node: object, operation: .disposed))
            case .labelled(let object, let label):
                guard let object = state.numbers[object] else { return }
                state.nodes[object - 1].label = label
                if case .subscription(let stream, _) = label { state.breakpoints.subscribed(stream, node: object, at: t) }
            case .released(let identifier):
                // Its address may name a new object next: forget it.
                guard let object = state.numbers.removeValue(forKey: identifier) else { return }
                Self.append(&state, Change(t: t, node: object, operation: .released))
            }
        }
    }

    /// Keeps `change`, and stops at a breakpoint it meets.
    private static func append(_ state: inout State, _ change: Change) {
        state.changes.append(change)
        state.breakpoints.check(change)
    }

    // MARK: Breakpoints

    /// Sets the session's breakpoints (``Breakpoint``), going on from any it stopped at.
    func setBreakpoints(_ breakpoints: [Breakpoint]) {
        state.withLock { state in
            state.breakpoints.list = breakpoints
            state.breakpoints.hit = nil
        }
    }

    /// The breakpoints and the one the session stopped at, if it did and has not gone on.
    var breakpoints: (list: [Breakpoint], hit: BreakpointHit?) {
        state.withLock { ($0.breakpoints.list, $0.breakpoints.hit) }
    }

    /// Whether any breakpoint is set: the clock then moves one piece of work at a time.
    var hasBreakpoints: Bool { state.withLock { !$0.breakpoints.list.isEmpty } }

    /// Whether the session stopped at a breakpoint and has not gone on: its clock waits.
    var isAtBreakpoint: Bool { state.withLock { $0.breakpoints.hit != nil } }

    /// Goes on from the breakpoint the session stopped at; whether it had stopped.
    @discardableResult
    func goOn() -> Bool {
        state.withLock { state in
            defer { state.breakpoints.hit = nil }
            return state.breakpoints.hit != nil
        }
    }

    /// The breakpoint met since this was last asked, once: the session tells its watchers.
    func takeNewHit() -> BreakpointHit? {
        state.withLock { state in
            guard !state.breakpoints.announced, let hit = state.breakpoints.hit else { return nil }
            state.breakpoints.announced = true
            return hit
        }
    }
}
