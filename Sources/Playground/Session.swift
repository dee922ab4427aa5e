import Foundation
import MicroHTTP
import Reactive
import Scenarios

/// One running scenario instance and the people watching it.
///
/// The scenario lives on one `RunLoopScheduler` thread: it is built there, its inputs are applied
/// there in arrival order, and its events are recorded there. Each event gets the next `seq` (also
/// its SSE `id:`) and is formatted once, kept in a bounded buffer for `Last-Event-ID` resumption,
/// remembered as the latest of its stream when the stream is a state stream, and sent to every
/// watcher — all under the session's lock, so a watcher that connects sees its snapshot and then
/// exactly the live events after it, none lost, none twice.
///
/// A virtual-clock session (DESIGN.md §3) builds its scenario on a `TestScheduler` instead: work due
/// at the current virtual time runs right after each input, and time moves only through the
/// `advance` input. Its work still runs on the session's thread, one item at a time.
final class Session: Sendable {
    /// Real time, or a virtual clock moved by `advance`.
    enum Clock: String, Sendable {
        case real, virtual
    }

    /// The `advance` input of virtual-clock sessions: milliseconds to move the clock by.
    static let advanceInput = "advance"
    /// The most one `advance` may move the clock: one hour.
    static let maximumAdvance = 3_600_000.0

    let id: String
    let scenario: any Scenario.Type
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

    /// One recorded event: its number, stream, what happened and when, and its SSE frame.
    struct Recorded: Sendable {
        let seq: Int
        let stream: String
        let streamEvent: StreamEvent
        /// Milliseconds since the session started (virtual on a virtual clock).
        let t: Double
        let event: ServerSentEvent
    }

    private struct State {
        var instance: (any Scenario)?
        var nextSeq = 1
        var buffer: [Recorded] = []
        var bufferStart = 0
        var latestOfStateStream: [String: Recorded] = [:]
        var watchers: [ObjectIdentifier: EventStream] = [:]
        var lastActivity = ContinuousClock.now
        var isClosed = false
        var inputTokens: Double
        /// Inputs that were completed or failed.
        var endedInputs: Set<String> = []
        var tokensUpdated = ContinuousClock.now
    }

    private let state: Lock<State>

    init(id: String, scenario: any Scenario.Type, clientAddress: String, scheduler: RunLoopScheduler,
         clock: Clock = .real, settings: ScenarioSettings, limits: SessionLimits) {
        self.id = id
        self.scenario = scenario
        self.clientAddress = clientAddress
        self.scheduler = scheduler
        self.limits = limits
        self.clock = clock
        let virtualClock = clock == .virtual ? TestScheduler() : nil
        self.virtualClock = virtualClock
        let clockScheduler: any Scheduler = virtualClock ?? scheduler
        self.clockScheduler = clockScheduler
        origin = clockScheduler.now
        stateStreams = Set(scenario.description.streams.filter(\.state).map(\.name))
        state = Lock(State(inputTokens: limits.inputBurst))
        scheduler.schedule { [self] in
            let instance = scenario.init(scheduler: clockScheduler, settings: settings) { [weak self] stream, event in
                self?.record(stream, event)
            }
            virtualClock?.advance()
            let keep = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.instance = instance
                return true
            }
            if !keep { instance.stop() }
        }
    }

    /// The session's event stream, as a path.
    var eventsPath: String { "/api/sessions/\(id)/events" }
    /// Where its inputs are posted: this path followed by an input's name.
    var inputsPath: String { "/api/sessions/\(id)/inputs/" }

    // MARK: Events

    private func record(_ stream: String, _ event: StreamEvent) {
        let elapsed = clockScheduler.now - origin
        let milliseconds = Double(elapsed / .microseconds(100)).rounded() / 10
        state.withLock { state in
            guard !state.isClosed else { return }
            let seq = state.nextSeq
            state.nextSeq += 1
            let frame = ServerSentEvent(data: EventJSON.encode(stream: stream, event: event, seq: seq, t: milliseconds),
                                        event: stream, id: String(seq))
            let recorded = Recorded(seq: seq, stream: stream, streamEvent: event, t: milliseconds, event: frame)
            state.buffer.append(recorded)
            if state.buffer.count - state.bufferStart > limits.eventBuffer {
                state.bufferStart += 1
                if state.bufferStart > limits.eventBuffer {  // compact now and then, not per event
                    state.buffer.removeFirst(state.bufferStart)
                    state.bufferStart = 0
                }
            }
            if stateStreams.contains(stream) { state.latestOfStateStream[stream] = recorded }
            for watcher in state.watchers.values { watcher.send(frame) }
        }
    }

    /// Adds `stream` as a watcher: first the snapshot of the state streams (or, with a
    /// `Last-Event-ID`, the buffered events after it, or `reset` and the snapshot when some are
    /// gone), then live events.
    func watch(_ stream: EventStream) {
        let lastEventID = stream.lastEventID.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            if let lastEventID {
                let buffered = state.buffer[state.bufferStart...]
                let oldest = buffered.first?.seq ?? state.nextSeq
                if lastEventID + 1 >= oldest && lastEventID < state.nextSeq {
                    for recorded in buffered where recorded.seq > lastEventID { stream.send(recorded.event) }
                } else {
                    stream.send(ServerSentEvent(data: #"{"reason":"events after Last-Event-ID are no longer buffered"}"#,
                                                event: "reset"))
                    sendSnapshot(state, to: stream)
                }
            } else {
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
        stream.onTermination { [weak self, weak stream] in
            guard let self, let stream else { return }
            self.state.withLock { state in
                state.watchers[ObjectIdentifier(stream)] = nil
                state.lastActivity = .now
            }
        }
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
    }

    /// Queues `event` for input `name`, unless the input has ended or the session's input rate
    /// is exceeded.
    func send(_ event: InputEvent, to name: String) -> Result<Void, InputRefusal> {
        enqueue(input: name, ending: !event.isValue) { [self] instance in
            instance.apply(event, to: name)
            virtualClock?.advance()  // work due now runs after each input
        }
    }

    /// Queues a move of the virtual clock by `milliseconds` (the `advance` input).
    func advance(by milliseconds: Double) -> Result<Void, InputRefusal> {
        enqueue(input: Self.advanceInput, ending: false) { [self] _ in
            virtualClock?.advance(by: .microseconds(Int64((milliseconds * 1_000).rounded())))
        }
    }

    private func enqueue(
        input name: String, ending: Bool, _ work: @escaping @Sendable (any Scenario) -> Void
    ) -> Result<Void, InputRefusal> {
        let verdict = state.withLock { state -> Result<Void, InputRefusal> in
            // Decided here, in arrival order, so the answer matches what the queue will do; before
            // the rate, because an ended input stays ended (409) while a rate limit passes (429).
            guard !state.endedInputs.contains(name) else { return .failure(.inputEnded) }
            let now = ContinuousClock.now
            let refill = Double((now - state.tokensUpdated) / .milliseconds(1)) / 1_000 * limits.inputsPerSecond
            state.inputTokens = min(limits.inputBurst, state.inputTokens + refill)
            state.tokensUpdated = now
            guard state.inputTokens >= 1, !state.isClosed else { return .failure(.rateExceeded) }
            if ending { state.endedInputs.insert(name) }
            state.inputTokens -= 1
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

    /// Whether nobody watches and nothing happened for `timeout`.
    func isIdle(now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        state.withLock { $0.watchers.isEmpty && now - $0.lastActivity > timeout }
    }

    /// Ends the session: its watchers' streams end and the scenario stops.
    func close() {
        let (instance, watchers) = state.withLock { state -> ((any Scenario)?, [EventStream]) in
            state.isClosed = true
            defer {
                state.instance = nil
                state.watchers = [:]
            }
            return (state.instance, Array(state.watchers.values))
        }
        watchers.forEach { $0.close() }
        if let instance { scheduler.schedule { instance.stop() } }
    }
}

/// The per-session limits, from the command line.
struct SessionLimits: Sendable {
    /// Events kept for `Last-Event-ID` resumption.
    var eventBuffer = 1_024
    /// Inputs accepted per second, sustained.
    var inputsPerSecond = 100.0
    /// Inputs accepted in a burst.
    var inputBurst = 100.0
}

/// The `data:` of one event: `{"stream","kind","value","seq","t"}`.
enum EventJSON {
    static func encode(stream: String, event: StreamEvent, seq: Int, t: Double) -> String {
        // Hand-assembled so the fields keep the documented order; names come from the catalogue
        // (plain identifiers) and values are encoded by JSONEncoder.
        var data = #"{"stream":"\#(stream)","kind":"\#(event.kind)""#
        switch event {
        case .next(let value):
            data += #","value":"# + json(value)
        case .error(let code, let message):
            data += #","value":"# + json(.object(["code": .string(code), "message": .string(message)]))
        case .completed:
            break
        }
        return data + #","seq":\#(seq),"t":\#(t)}"#
    }

    static func json(_ value: JSONValue) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()
}
