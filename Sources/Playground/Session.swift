import Foundation
import Locking
import Logging
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// One running pipeline — a built-in scenario or a user's program — and the people watching it.
/// (About 400 lines: its inputs, its event log and its watchers share one lock and one thread, so
/// they stay one type.)
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
    private let scheduler: RunLoopScheduler
    /// The scenario's clock: the run loop's real time, or the virtual clock.
    private let clockScheduler: any Scheduler
    private let virtualClock: TestScheduler?
    let clock: Clock
    private let origin: Duration
    private let stateStreams: Set<String>
    private let limits: SessionLimits

    /// One recorded event: its number, stream, what happened and when, why, and its SSE frame.
    /// Kept as text only — a value's tree of JSON takes many times its text's bytes.
    struct Recorded: Sendable {
        let seq: Int
        let stream: String
        /// `next`, `error`, `completed`, `subscribed` or `disposed`.
        let kind: String
        /// The JSON of a `next`'s value or an `error`'s `{code, message}`; `nil` for `completed`.
        let valueJSON: String?
        /// Milliseconds since the session started (virtual on a virtual clock).
        let t: Double
        /// The input events at the root of the propagation that sent it (see ``Causes``).
        let causes: [Int]
        /// The subscription that began, delivered it, or ended (`nil` for an input's events).
        let subscription: Int?
        /// The name of the scheduler whose thread delivered it (``Session/currentThread``).
        let thread: String
        let event: ServerSentEvent

        /// The bytes it holds, about: its texts and a fixed share for the rest.
        var bytes: Int {
            event.frame.utf8.count + (valueJSON?.utf8.count ?? 0) + stream.utf8.count + 8 * causes.count + 128
        }
    }

    /// The stream name under which input `name`'s events are recorded: apart from the streams, so
    /// that an input and a stream of the same name (the binding scenario's `fieldA`) stay apart.
    static func inputStream(_ name: String) -> String { "input:" + name }

    /// One stream's subscriptions (`GET /api/sessions/{sid}`'s `subscriptions`): made since the
    /// session started, and live now.
    struct SubscriptionTally: Encodable, Equatable {
        var subscriptions = 0
        var live = 0
        mutating func began() {
            subscriptions += 1
            live += 1
        }
        mutating func ended() { live = max(0, live - 1) }
    }

    private struct State {
        var instance: (any SessionInstance)?
        /// By stream name (bounded by the names a pipeline has: its streams, stages and sources).
        var subscriptions: [String: SubscriptionTally] = [:]
        var nextSeq = 1
        var buffer: [Recorded] = []
        var bufferStart = 0
        /// The bytes of the events kept in `buffer` from `bufferStart` on.
        var bufferBytes = 0
        var latestOfStateStream: [String: Recorded] = [:]
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
    }

    private let state: Lock<State>

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
        self.limits = limits
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
        stateStreams = Set(definition.description.streams.filter(\.state).map(\.name))
        state = Lock(State(inputs: TokenBucket(capacity: limits.inputBurst, perSecond: limits.inputsPerSecond)))
        scheduler.schedule { [self] in
            let instance = definition.start(clock, settings) { [weak self] stream, report in
                self?.record(stream, report)
            }
            runDueVirtualWork()
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

    /// The session's event stream, as a path.
    var eventsPath: String { "/api/sessions/\(id)/events" }
    /// Where its inputs are posted: this path followed by an input's name.
    var inputsPath: String { "/api/sessions/\(id)/inputs/" }

    // MARK: Events

    /// Records what the pipeline reported of `stream`: an event, or a subscription's start or end.
    private func record(_ stream: String, _ report: StageReport) {
        switch report {
        case .event(let event, let subscription): record(stream, event, subscription: subscription)
        case .subscribed(let id): record(stream, kind: "subscribed", valueJSON: nil, subscription: id, isInput: false)
        case .disposed(let id): record(stream, kind: "disposed", valueJSON: nil, subscription: id, isInput: false)
        }
    }

    /// Records `event` of `stream` with the current ``Causes``, or, for an input's event
    /// (`isInput`), with its own number as its cause. Returns its number (`nil` once closed).
    @discardableResult
    private func record(_ stream: String, _ event: StreamEvent, subscription: Int? = nil, isInput: Bool = false) -> Int? {
        record(stream, kind: event.kind, valueJSON: EventJSON.valueJSON(of: event), subscription: subscription, isInput: isInput)
    }

    /// Records an event of `kind` (`next`, `error`, `completed`, `subscribed`, `disposed`).
    @discardableResult
    private func record(_ stream: String, kind: String, valueJSON: String?, subscription: Int?, isInput: Bool) -> Int? {
        let elapsed = clockScheduler.now - origin
        let milliseconds = Double(elapsed / .microseconds(100)).rounded() / 10
        let current = isInput ? [] : Causes.current
        let thread = currentThread
        return state.withLock { state -> Int? in
            guard !state.isClosed else { return nil }
            let seq = state.nextSeq
            state.nextSeq += 1
            let causes = isInput ? [seq] : current
            let frame = ServerSentEvent(
                data: EventJSON.encode(
                    stream: stream,
                    kind: kind,
                    valueJSON: valueJSON,
                    seq: seq,
                    t: milliseconds,
                    causes: causes,
                    thread: thread,
                    subscription: subscription
                ),
                event: stream,
                id: String(seq)
            )
            let recorded = Recorded(
                seq: seq,
                stream: stream,
                kind: kind,
                valueJSON: valueJSON,
                t: milliseconds,
                causes: causes,
                subscription: subscription,
                thread: thread,
                event: frame
            )
            keep(recorded, in: &state)
            switch kind {
            case "subscribed": state.subscriptions[stream, default: SubscriptionTally()].began()
            case "disposed": state.subscriptions[stream, default: SubscriptionTally()].ended()
            default: break
            }
            // A state stream's latest event is a value or its end, not a subscription's start or end.
            if stateStreams.contains(stream), ["next", "error", "completed"].contains(kind) {
                state.latestOfStateStream[stream] = recorded
            }
            for watcher in state.watchers.values { watcher.send(frame) }
            return seq
        }
    }

    /// The thread the caller runs on, by the name a learner reads: the name of the scheduler whose
    /// work it runs (`background`, the schedulers scenario's `queue` and `run-loop`), else
    /// `session` on the session's own thread. Other threads (none deliver events today) are `other`.
    private var currentThread: String {
        NamedScheduler.currentName ?? (scheduler.isCurrent ? "session" : "other")
    }

    /// Adds `recorded` to the events kept for `Last-Event-ID`, then forgets the oldest while more are
    /// kept than the session may keep in count or in bytes, or than all program sessions together
    /// may keep in bytes (the newest is always kept: no value is larger than an event stream's queue).
    private func keep(_ recorded: Recorded, in state: inout State) {
        let bytes = recorded.bytes
        state.buffer.append(recorded)
        state.bufferBytes += bytes
        limits.sharedEventBytes?.add(bytes)
        while state.buffer.count - state.bufferStart > 1,
            state.buffer.count - state.bufferStart > limits.eventBuffer || state.bufferBytes > limits.eventBytes
                || limits.sharedEventBytes?.isOverLimit == true
        {
            let oldest = state.buffer[state.bufferStart].bytes
            state.bufferStart += 1
            state.bufferBytes -= oldest
            limits.sharedEventBytes?.add(-oldest)
        }
        if state.bufferStart > limits.eventBuffer || state.bufferStart > state.buffer.count / 2 {  // compact now and then, not per event
            state.buffer.removeFirst(state.bufferStart)
            state.bufferStart = 0
        }
    }

    /// Adds `stream` as a watcher: first the snapshot of the state streams (or, with a
    /// `Last-Event-ID`, the buffered events after it, or `reset` and the snapshot when some are
    /// gone), then live events. `since` stands for a `Last-Event-ID` the stream did not send.
    func watch(_ stream: EventStream, since: Int? = nil) {
        let lastEventID = stream.lastEventID.map(OutsideNumbers.eventID) ?? since.map { Optional($0) }
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            let buffered = state.buffer[state.bufferStart...]
            switch Self.resumption(
                after: lastEventID,
                oldestBuffered: buffered.first?.seq ?? state.nextSeq,
                next: state.nextSeq
            ) {
            case .snapshot:
                sendSnapshot(state, to: stream)
            case .replay(let after):
                for recorded in buffered where recorded.seq > after { stream.send(recorded.event) }
            case .reset:
                stream.send(
                    ServerSentEvent(
                        data: #"{"reason":"events after Last-Event-ID are no longer buffered"}"#,
                        event: "reset"
                    )
                )
                sendSnapshot(state, to: stream)
            }
            state.watchers[ObjectIdentifier(stream)] = stream
            state.lastActivity = .now
            return true
        }
        guard accepted else {
            stream.close()
            return
        }
        // Strong and by identifier: a weak capture is a box of its own, and a weak reference to the
        // stream would give it a side table. The cycle through the stream ends when it does (and
        // ending the session closes its streams).
        let id = ObjectIdentifier(stream)
        stream.onTermination { [self] in
            state.withLock { state in
                state.watchers[id] = nil
                state.lastActivity = .now
            }
        }
    }

    /// How a new watcher starts.
    enum Resumption: Equatable {
        /// No `Last-Event-ID`: the latest value of every state stream.
        case snapshot
        /// Every buffered event after this number.
        case replay(after: Int)
        /// The events after the id are gone (or the id is not one of ours): `reset`, then the snapshot.
        case reset
    }

    /// Decides how a watcher that sent `lastEventID` (`nil`: none; `.some(nil)`: one that is not a
    /// valid event number) starts, given the oldest buffered event's number and the next one.
    /// No arithmetic on the client's number: it is only compared.
    static func resumption(after lastEventID: Int??, oldestBuffered oldest: Int, next: Int) -> Resumption {
        guard let lastEventID else { return .snapshot }
        guard let lastEventID, lastEventID >= oldest - 1, lastEventID < next else { return .reset }
        return .replay(after: lastEventID)
    }

    private func sendSnapshot(_ state: State, to stream: EventStream) {
        for recorded in state.latestOfStateStream.values.sorted(by: { $0.seq < $1.seq }) {
            stream.send(recorded.event)
        }
    }

    /// The events still buffered, oldest first (all of them unless more than the buffer holds).
    func recordedEvents() -> [Recorded] {
        state.withLock { Array($0.buffer[$0.bufferStart...]) }
    }

    // MARK: Inputs

    /// Why an input was not queued.
    enum InputRefusal: Error {
        /// The session's input rate is exceeded (429).
        case rateExceeded
        /// The input was completed or failed before: its signal takes nothing more (409).
        case inputEnded
        /// The virtual clock would pass ``Session/maximumVirtualTime`` (409).
        case clockExhausted
    }

    /// Queues `event` for input `name`, unless the input has ended or the session's input rate
    /// is exceeded.
    func send(_ event: InputEvent, to name: String) -> Result<Void, InputRefusal> {
        enqueue(input: name, ending: !event.isValue) { [self] instance in
            // The input is an event too (`input:NAME`), and the root cause of all it propagates.
            guard let seq = record(Self.inputStream(name), event.recorded, isInput: true) else { return }
            Causes.with([seq]) { instance.apply(event, to: name) }
            runDueVirtualWork()  // work due now runs after each input, with the causes it was scheduled with
        }
    }

    /// Each stream's and stage's subscriptions so far and live now, counted from its
    /// `subscribed` and `disposed` events, and the `seq` of the last event they include (so that a
    /// watcher adds only the later ones).
    var subscriptionCounts: (counts: [String: SubscriptionTally], countedTo: Int) {
        state.withLock { ($0.subscriptions, $0.nextSeq - 1) }
    }

    /// Milliseconds the virtual clock has reached since the session started (the work queued
    /// before it may not have run yet); `nil` on a real clock.
    var virtualTime: Double? {
        virtualClock.map { Double(($0.now - origin) / .microseconds(100)).rounded() / 10 }
    }

    /// Queues a move of the virtual clock by `milliseconds` (the `advance` input), unless the
    /// session's virtual time would pass ``maximumVirtualTime``.
    func advance(by milliseconds: Double) -> Result<Void, InputRefusal> {
        enqueue(input: Self.advanceInput, ending: false, virtualMilliseconds: milliseconds) { [self] _ in
            guard let virtualClock else { return }
            let target = virtualClock.now + .microseconds(Int64((milliseconds * 1_000).rounded()))
            if !virtualClock.advance(to: target, maximumSteps: Self.virtualStepBudget) {
                budgetExhausted()
            }
        }
    }

    /// Runs the virtual clock's work that is due now, within the step budget.
    private func runDueVirtualWork() {
        guard let virtualClock else { return }
        if !virtualClock.advance(to: virtualClock.now, maximumSteps: Self.virtualStepBudget) {
            budgetExhausted()
        }
    }

    private func budgetExhausted() {
        Self.logger.warning(
            "virtual clock stopped: one request's work passed the step budget",
            metadata: ["session": "\(id.prefix(8))…", "budget": "\(Self.virtualStepBudget)"]
        )
    }

    private static let logger = Logger(label: "playground.sessions")

    private func enqueue(
        input name: String,
        ending: Bool,
        virtualMilliseconds: Double = 0,
        _ work: @escaping @Sendable (any SessionInstance) -> Void
    ) -> Result<Void, InputRefusal> {
        let verdict = state.withLock { state -> Result<Void, InputRefusal> in
            // Decided here, in arrival order, so the answer matches what the queue will do; before
            // the rate, because an ended input stays ended (409) while a rate limit passes (429).
            guard !state.endedInputs.contains(name) else { return .failure(.inputEnded) }
            let now = ContinuousClock.now
            state.inputs.refill(at: now)
            guard state.inputs.tokens >= 1, !state.isClosed else { return .failure(.rateExceeded) }
            guard state.virtualTimeRequested + virtualMilliseconds <= Self.maximumVirtualTime else {
                return .failure(.clockExhausted)
            }
            state.virtualTimeRequested += virtualMilliseconds
            if ending { state.endedInputs.insert(name) }
            _ = state.inputs.take(at: now)
            state.lastActivity = now
            return .success(())
        }
        guard case .success = verdict else { return verdict }
        scheduler.schedule { [self] in
            guard let instance = state.withLock({ $0.instance }) else { return }
            work(instance)
        }
        return verdict
    }

    // MARK: Life

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Bytes of values the session's program sent lately (0 for a scenario, or a program halted
    /// or being halted).
    var recentBytesSent: Double {
        state.withLock { $0.isHaltingForMemory ? nil : $0.instance }?.recentBytesSent ?? 0
    }

    /// Halts the session's program, on its thread, because the server's memory is short.
    func haltForMemory() {
        state.withLock { $0.isHaltingForMemory = true }
        scheduler.schedule { [self] in state.withLock { $0.instance }?.haltForMemory() }
    }

    /// Whether nobody watches and nothing happened for `timeout`.
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        state.withLock { $0.watchers.isEmpty && now - $0.lastActivity > timeout }
    }

    /// Ends the session: its watchers' streams end — after a final `event: end` with
    /// `{"reason": reason}` when a reason is given — and the scenario stops.
    func close(endingWith reason: String? = nil) {
        let (instance, watchers) = state.withLock { state -> ((any SessionInstance)?, [EventStream]) in
            if !state.isClosed { limits.sharedEventBytes?.add(-state.bufferBytes) }
            state.isClosed = true
            defer {
                state.instance = nil
                state.watchers = [:]
                state.buffer = []
                state.bufferStart = 0
                state.bufferBytes = 0
            }
            return (state.instance, Array(state.watchers.values))
        }
        if let reason {
            let end = ServerSentEvent(data: #"{"reason":"\#(reason)"}"#, event: "end")
            for watcher in watchers { watcher.send(end) }
        }
        for watcher in watchers { watcher.close() }
        if let instance { scheduler.schedule { instance.stop() } }
    }
}
