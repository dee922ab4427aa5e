import Foundation
import Locking
import Logging
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// One running pipeline — a built-in scenario or a user's program — and the people watching it.
/// Its jobs share one lock and one thread, so they are one type in five files: this one (the
/// clock, the instance, recording events), `EventLog.swift` (the events kept), `SessionWatchers.swift`
/// (the SSE connections watching it) and `SessionInputs.swift` (inputs and the virtual clock); its
/// work runs under the inspector of `Inside/SessionInside.swift`, which keeps what its RAC objects do.
///
/// The scenario lives on one `RunLoopScheduler` thread: it is built there, its inputs are applied
/// there in arrival order, and its events are recorded there. Each event gets the next `seq` (also
/// its SSE `id:`) and is formatted once, kept in a bounded buffer for `Last-Event-ID` resumption,
/// remembered as the latest of its stream when the stream is a state stream, and sent to every
/// watcher — all under the session's lock, so a watcher that connects sees its snapshot and then
/// exactly the live events after it, none lost, none twice.
///
/// A virtual-clock session (docs/API.md) builds its scenario on a `TestScheduler` instead: work due
/// at the current virtual time runs right after each input, and time moves only through the
/// `advance` input. Its work still runs on the session's thread, one item at a time.
final class Session: Sendable {
    /// Real time, or a virtual clock moved by `advance`.
    enum Clock: String, Sendable {
        case real, virtual
    }

    /// The `advance` input of virtual-clock sessions: milliseconds to move the clock by.
    static let advanceInput = "advance"
    /// The most one `advance` may move the clock: one minute.
    static let maximumAdvance = 60_000.0
    /// The most a session's virtual clock may move in all: one hour. Past it, `advance` answers 409
    /// `clock_exhausted`: virtual time is free for the client but not for the server, whose thread
    /// runs every timer on the way.
    static let maximumVirtualTime = 3_600_000.0
    /// The most scheduled work one input or one `advance` may run on a virtual clock. Past it the
    /// clock stops where the work reached (and the rest stays due), so that no request can keep the
    /// session's thread — shared with other sessions — busy for long.
    static let virtualStepBudget = 20_000

    let id: String
    /// What the session runs: its description and how it starts.
    let definition: SessionDefinition
    let clientAddress: String
    let created = Date()
    /// Where the session's work runs, in order.
    let scheduler: RunLoopScheduler
    /// The scenario's clock: the run loop's real time, or the virtual clock.
    private let clockScheduler: any Scheduler
    let virtualClock: TestScheduler?
    let clock: Clock
    let origin: Duration
    /// What its RAC objects did (``InsideLog``): its work runs under this inspector.
    let inside: InsideLog

    /// The stream name under which input `name`'s events are recorded: apart from the streams, so
    /// that an input and a stream of the same name (the binding scenario's `fieldA`) stay apart.
    static func inputStream(_ name: String) -> String { "input:" + name }

    /// What the session's lock guards; its files (above) alone touch it.
    struct State {
        var instance: (any SessionInstance)?
        var log: EventLog
        /// The SSE connections watching the session.
        var watchers: [ObjectIdentifier: EventStream] = [:]
        var lastActivity = ContinuousClock.now
        var isClosed = false
        /// The inputs accepted per second, and in a burst.
        var inputs: TokenBucket
        /// Inputs that were completed or failed.
        var endedInputs: Set<String> = []
        /// Milliseconds of virtual time asked for by accepted `advance` inputs.
        var virtualTimeRequested = 0.0
        /// The program was asked to halt for memory (it may not have run yet: it waits its turn).
        var isHaltingForMemory = false
        /// What was done to it, to be replayed (a room's session keeps one: ``SessionLimits/journalBytes``).
        var journal: SessionJournal?
        /// A room holds it: it does not expire while the room lives, and only the room drives it.
        var heldBy: String?
        /// The milliseconds its virtual clock may not pass now, if any (``limitClock(by:)``).
        var clockCeiling: (@Sendable () -> Double?)?
        /// Its RAC objects' changes, streamed to the watchers that ask (``InsideFeed``).
        var insideFeed = InsideFeed()
    }

    let state: Lock<State>

    init(
        id: String,
        definition: SessionDefinition,
        clientAddress: String,
        scheduler: RunLoopScheduler,
        clock: Clock = .real,
        settings: ScenarioSettings,
        limits: SessionLimits
    ) {
        self.id = id
        self.definition = definition
        self.clientAddress = clientAddress
        self.scheduler = scheduler
        self.clock = clock
        let virtualClock = clock == .virtual ? TestScheduler() : nil
        self.virtualClock = virtualClock
        let clockScheduler: any Scheduler = CausalScheduler(virtualClock ?? scheduler)
        self.clockScheduler = clockScheduler
        let clock = SessionClock(
            session: clockScheduler,
            background: CausalScheduler(virtualClock.map { NamedScheduler($0, name: "background") } ?? Self.background)
        )
        origin = clockScheduler.now
        let inside = InsideLog(capacity: limits.insideChanges, now: Self.milliseconds(since: origin, on: clockScheduler))
        self.inside = inside
        let stateStreams = Set(definition.description.streams.filter(\.state).map(\.name))
        state = Lock(
            State(
                log: EventLog(stateStreams: stateStreams, limits: limits),
                inputs: TokenBucket(capacity: limits.inputBurst, perSecond: limits.inputsPerSecond),
                journal: limits.journalBytes.map(SessionJournal.init(limit:))
            )
        )
        scheduler.schedule { [self] in
            let instance = Inspection.run(reportingTo: inside) {
                definition.start(clock, settings) { [weak self] stream, report in
                    self?.record(stream, report)
                }
            }
            inspected { runDueVirtualWork() }
            let keep = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.instance = instance
                return true
            }
            if !keep { instance.stop() }
        }
    }

    /// The one queue behind every program's `background` scheduler: serial, so that no program
    /// can make threads, and each piece of its work measured apart (``NamedScheduler``).
    static let background = NamedScheduler(QueueScheduler(label: "playground.background"), name: "background")

    // MARK: Events

    /// Records what the pipeline reported of `stream`: an event, or a subscription's start or end.
    private func record(_ stream: String, _ report: StageReport) {
        switch report {
        case .event(let event, let subscription): record(stream, event, subscription: subscription)
        case .subscribed(let id): record(stream, kind: .subscribed, valueJSON: nil, subscription: id, isInput: false)
        case .disposed(let id): record(stream, kind: .disposed, valueJSON: nil, subscription: id, isInput: false)
        }
    }

    /// Records `event` of `stream` with the current ``Causes``, or, for an input's event
    /// (`isInput`), with its own number as its cause. Returns its number (`nil` once closed).
    @discardableResult
    func record(_ stream: String, _ event: StreamEvent, subscription: Int? = nil, isInput: Bool = false) -> Int? {
        record(stream, kind: event.eventKind, valueJSON: EventJSON.valueJSON(of: event), subscription: subscription, isInput: isInput)
    }

    /// Records an event of `kind`: numbered, formatted once, kept and sent to every watcher.
    @discardableResult
    private func record(_ stream: String, kind: EventKind, valueJSON: String?, subscription: Int?, isInput: Bool) -> Int? {
        let elapsed = clockScheduler.now - origin
        let milliseconds = Double(elapsed / .microseconds(100)).rounded() / 10
        let current = isInput ? [] : Causes.current
        let thread = currentThread
        return state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            let seq = state.log.takeSeq()
            let causes = isInput ? [seq] : current
            let event = RecordedEvent(
                seq: seq,
                stream: stream,
                kind: kind,
                valueJSON: valueJSON,
                t: milliseconds,
                causes: causes,
                subscription: subscription,
                thread: thread
            )
            let frame = ServerSentEvent(data: EventJSON.encode(event), event: stream, id: String(seq))
            state.insideFeed.flush(inside, lastEvent: seq - 1)  // what the objects did before it comes first
            state.log.append(EventLog.Entry(event: event, frame: frame, insideThrough: state.insideFeed.through(inside)))
            for watcher in state.watchers.values { watcher.send(frame) }
            return seq
        }
    }

    /// The thread the caller runs on, by the name a learner reads: the name of the scheduler whose
    /// work it runs (`background`, the schedulers scenario's `queue` and `run-loop`), else
    /// `session` on the session's own thread. Other threads (none deliver events today) are `other`.
    var currentThread: String {
        NamedScheduler.currentName ?? (scheduler.isCurrent ? "session" : "other")
    }

    /// The events still buffered, oldest first (all of them unless more than the buffer holds).
    func recordedEvents() -> [RecordedEvent] {
        state.withLock { $0.log.kept.map(\.event) }
    }

    /// The events still buffered, and how many the session has made.
    var keptEvents: (events: [RecordedEvent], made: Int) {
        state.withLock { ($0.log.kept.map(\.event), $0.log.nextSeq - 1) }
    }

    // MARK: Counts

    /// Each stream's and stage's subscriptions so far and live now, counted from its
    /// `subscribed` and `disposed` events, and the `seq` of the last event they include (so that a
    /// watcher adds only the later ones).
    var subscriptionCounts: (counts: [String: SubscriptionTally], countedTo: Int) {
        state.withLock { ($0.log.subscriptions, $0.log.nextSeq - 1) }
    }

    /// Milliseconds the virtual clock has reached since the session started (the work queued
    /// before it may not have run yet); `nil` on a real clock.
    var virtualTime: Double? {
        virtualClock.map { Double(($0.now - origin) / .microseconds(100)).rounded() / 10 }
    }

    // MARK: Life

    /// Bytes of values the session's program sent lately (0 for a scenario, or a program halted
    /// or being halted).
    var recentBytesSent: Double {
        state.withLock { $0.isHaltingForMemory ? nil : $0.instance }?.recentBytesSent ?? 0
    }

    /// Lets go of the oldest events kept while the session's client holds more than its share of
    /// what all program sessions keep (``EventLog/forgetOldest()``).
    func forgetOldestEvents() {
        state.withLock { $0.log.forgetOldest() }
    }

    /// Halts the session's program, on its thread, because the server's memory is short.
    func haltForMemory() {
        state.withLock { $0.isHaltingForMemory = true }
        scheduler.schedule { [self] in inspected { state.withLock { $0.instance }?.haltForMemory() } }
    }

    /// Whether nobody watches and nothing happened for `timeout` (never while a room holds it).
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        state.withLock { $0.heldBy == nil && $0.watchers.isEmpty && now - $0.lastActivity > timeout }
    }

    /// Bounds the virtual clock by `ceiling`, asked at each `advance`: a room's session taken home
    /// waits at the start of the room's open question until its answer is revealed, since a copy
    /// run past it would show the answer (`nil`: no bound now).
    func limitClock(by ceiling: @escaping @Sendable () -> Double?) {
        state.withLock { $0.clockCeiling = ceiling }
    }

    /// The milliseconds the virtual clock may not pass now, if any.
    var clockCeiling: Double? { state.withLock { $0.clockCeiling }?() }

    /// The id of the room that holds the session, if one does: only that room drives or ends it.
    var room: String? { state.withLock { $0.heldBy } }

    /// Makes the room `id` the session's holder (``room``).
    func hold(for id: String) {
        state.withLock { $0.heldBy = id }
    }

    /// The session's journal so far and the virtual milliseconds its accepted steps reach; `nil`
    /// when it keeps none or it is no longer whole.
    var journal: (steps: [SessionJournal.Step], milliseconds: Double)? {
        state.withLock { state in
            guard let journal = state.journal, journal.isWhole else { return nil }
            return (journal.steps, journal.milliseconds)
        }
    }

    /// Ends the session: its watchers' connections end — after a final `event: end` with
    /// `{"reason": reason}` when a reason is given — and the scenario stops.
    func close(endingWith reason: String? = nil) {
        // The instance goes straight from the state into the work that stops it: no reference
        // here may outlive that work, or its objects are freed outside the inspection, unseen.
        let (stopping, watchers) = state.withLock { state -> ((@Sendable () -> Void)?, [EventStream]) in
            if !state.isClosed { state.insideFeed.flush(inside, lastEvent: state.log.nextSeq - 1) }
            state.isClosed = true
            defer {
                state.watchers = [:]
                state.log.clear()
            }
            let stopping = state.instance.take().map { inside.stopping($0) }
            return (stopping, Array(state.watchers.values))
        }
        if let reason {
            let end = ServerSentEvent(data: #"{"reason":"\#(reason)"}"#, event: "end")
            for watcher in watchers { watcher.send(end) }
        }
        for watcher in watchers { watcher.close() }
        if let stopping { scheduler.schedule(stopping) }
    }
}
