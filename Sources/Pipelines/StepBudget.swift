import Foundation
import Locking
import Reactive

/// The work a running program may do, charged by its cost, and the size of the values it may make.
///
/// Two ``TokenBucket``s, each refilled by real time (real even on a virtual clock: the thread is real):
/// - **Steps**, charged by what the program asks for: a subscription is a step, a value a stage
///   sends is a step and one more for each ``Limits/bytesPerStep`` of its JSON, and a closure pays
///   for the elements it copies and the bytes it makes (``charge(elements:)``, ``charge(bytes:)``).
/// - **CPU time**, measured: what the program's own work took on its thread (``ThreadWork``),
///   the backstop for whatever the steps price too low. No piece of work holds a thread much
///   longer than ``Limits/cpuCapacity``.
///
/// A program that empties either — `failure("x").retry()`, `just(1).repeat()`, an explosion of
/// `flatMap`s over `from([…])`, `scan([]) { a, v in a + [v] }` — is halted: every subscription
/// is disposed, which stops even a synchronous loop, and each of its streams ends with the error
/// `budget_exceeded`. It can never keep a program thread, which other sessions share, busy for long.
public final class StepBudget: Sendable {
    /// How much a program may do at once and how fast it comes back, and how large its values may be.
    public struct Limits: Sendable {
        /// Steps available at once.
        public var capacity: Double
        /// Steps added each second.
        public var perSecond: Double
        /// The largest value a program may make, in bytes of its JSON.
        public var valueBytes: Int
        /// Seconds of thread CPU time available at once.
        public var cpuCapacity: Double
        /// Seconds of thread CPU time added each second.
        public var cpuPerSecond: Double

        /// Bytes of a value sent, or made by a closure, that cost one step.
        public static let bytesPerStep = 256
        /// Elements a closure copies that cost one step.
        public static let elementsPerStep = 16
        /// The default largest value: 64 KiB of JSON, far below an event stream's queue.
        public static let defaultValueBytes = 64 * 1024
        /// The most subscriptions a program may have live at once, by default.
        public static let defaultSubscriptions = 10_000
        /// The most subscriptions a program may have live at once: a named stream is cold, so a
        /// stream read by many streams is subscribed by each.
        public var subscriptions: Int

        /// The server's limits: 200,000 steps at once and 50,000 more a second; values of at most
        /// 64 KiB; 0.75 s of CPU time at once and a quarter of a core after that.
        public static let standard = Limits(capacity: 200_000, perSecond: 50_000)

        /// Creates limits.
        public init(
            capacity: Double,
            perSecond: Double,
            valueBytes: Int = defaultValueBytes,
            cpuCapacity: Double = 0.75,
            cpuPerSecond: Double = 0.25,
            subscriptions: Int = defaultSubscriptions
        ) {
            self.subscriptions = subscriptions
            self.capacity = capacity
            self.perSecond = perSecond
            self.valueBytes = valueBytes
            self.cpuCapacity = cpuCapacity
            self.cpuPerSecond = cpuPerSecond
        }
    }

    /// Which bucket ran out.
    public enum Exhaustion: Sendable {
        /// The steps: subscriptions, values, copies.
        case steps
        /// The thread's CPU time.
        case cpu
        /// The server's memory ran short, and this program sent the most bytes lately (``halt(_:)``).
        case memory
    }

    private struct State {
        var steps: TokenBucket
        /// Seconds of CPU time.
        var cpu: TokenBucket
        var isExhausted = false
        /// Steps charged since CPU time was last read.
        var sinceReading = 0
        /// The last reading on each thread the program's work ran on lately: its piece of work
        /// (``ThreadWork/current``) and its CPU time. A program's work runs on its session's thread
        /// and on the background queue's, in turns: one reading for both would never charge either.
        var readings: [ThreadReading] = []
        /// Bytes of the values the program's stages sent, each fading by half in ``bytesHalfLife``,
        /// as of `bytesUpdated`.
        var recentBytes = 0.0
        var bytesUpdated = ContinuousClock.now

        /// Brings `recentBytes` to `now` (not more often than every 10 ms: fading is a `pow`).
        mutating func fadeBytes(at now: ContinuousClock.Instant) {
            let elapsed = Double((now - bytesUpdated) / .microseconds(1)) / 1_000_000
            guard elapsed > 0.01 else { return }
            recentBytes *= StepBudget.fading(over: elapsed)
            bytesUpdated = now
        }
    }

    /// How fast ``recentBytesSent`` forgets.
    private static let bytesHalfLife = 30.0

    /// Steps between two readings of the CPU time (a reading is a system call).
    private static let stepsPerReading = 64

    let limits: Limits
    private let state: Lock<State>
    /// Called once, when the budget runs out.
    private let onExhausted: @Sendable (Exhaustion) -> Void

    init(_ limits: Limits = .standard, onExhausted: @escaping @Sendable (Exhaustion) -> Void) {
        self.limits = limits
        state = Lock(
            State(
                steps: TokenBucket(capacity: limits.capacity, perSecond: limits.perSecond),
                cpu: TokenBucket(capacity: limits.cpuCapacity, perSecond: limits.cpuPerSecond)
            )
        )
        self.onExhausted = onExhausted
    }

    /// Whether the budget has run out (the program is being halted).
    var isExhausted: Bool { state.withLock { $0.isExhausted } }

    /// Bytes of the values the program's stages sent lately (each counts half after 30 s): what
    /// a server short of memory compares programs by.
    var recentBytesSent: Double {
        state.withLock { state in
            let elapsed = Double((ContinuousClock.now - state.bytesUpdated) / .microseconds(1)) / 1_000_000
            return state.recentBytes * Self.fading(over: elapsed)
        }
    }

    fileprivate static func fading(over seconds: Double) -> Double {
        seconds <= 0 ? 1 : pow(0.5, seconds / bytesHalfLife)
    }

    /// Halts the program now, for `exhaustion` (the server's memory ran short); nothing if it is
    /// halted already.
    func halt(_ exhaustion: Exhaustion) {
        let haltsNow = state.withLock { state -> Bool in
            defer { state.isExhausted = true }
            return !state.isExhausted
        }
        if haltsNow { onExhausted(exhaustion) }
    }

    /// Takes `steps` steps, for a value of `sent` bytes when a stage sends one; `false` (and the
    /// program halted) once the budget is exhausted.
    func spend(_ steps: Int = 1, sent: Int = 0) -> Bool {
        spend(steps, sent: sent, readingCPU: false)
    }

    /// Reads the calling thread's CPU time now, charging what the program's work used since the
    /// last reading in the same piece of work (``MeteredScheduler`` reads before and after each
    /// piece it runs); `false` once the budget is exhausted.
    @discardableResult
    func readCPU() -> Bool {
        spend(0, readingCPU: true)
    }

    private func spend(_ steps: Int, sent: Int = 0, readingCPU: Bool) -> Bool {
        let (allowed, exhaustedNow) = state.withLock { state -> (Bool, Exhaustion?) in
            guard !state.isExhausted else { return (false, nil) }
            let now = ContinuousClock.now
            if sent > 0 {
                state.fadeBytes(at: now)
                state.recentBytes += Double(sent)
            }
            state.sinceReading += steps
            if readingCPU || state.sinceReading >= Self.stepsPerReading {
                state.sinceReading = 0
                chargeCPU(&state, at: now)
            }
            state.cpu.refill(at: now)
            guard state.cpu.tokens > 0 else {
                state.isExhausted = true
                return (false, .cpu)
            }
            guard steps == 0 || state.steps.take(Double(steps), at: now) else {
                state.isExhausted = true
                return (false, .steps)
            }
            return (true, nil)
        }
        if let exhaustedNow { onExhausted(exhaustedNow) }
        return allowed
    }

    /// One thread's last CPU-time reading.
    struct ThreadReading {
        let thread: UInt
        var work: UInt
        var nanoseconds: UInt64
    }

    /// Threads whose last reading is kept (a session's, and the few a queue lends).
    private static let threadsRemembered = 4

    /// Charges the CPU time since this thread's last reading, when both readings are in the same
    /// piece of work: between two pieces, other sessions may have run.
    private func chargeCPU(_ state: inout State, at now: ContinuousClock.Instant) {
        let thread = ThreadIdentity.current
        let work = ThreadWork.current
        let nanoseconds = ThreadWork.cpuNanoseconds()
        guard let index = state.readings.firstIndex(where: { $0.thread == thread }) else {
            if state.readings.count == Self.threadsRemembered { state.readings.removeFirst() }
            state.readings.append(ThreadReading(thread: thread, work: work, nanoseconds: nanoseconds))
            return
        }
        let last = state.readings[index]
        if last.work == work, nanoseconds > last.nanoseconds {
            state.cpu.charge(Double(nanoseconds - last.nanoseconds) / 1e9, at: now)
        }
        state.readings[index].work = work
        state.readings[index].nanoseconds = nanoseconds
    }

    /// Charges a closure's copy of `elements` values; `false` once the budget is exhausted.
    func charge(elements: Int) -> Bool {
        spend(1 + elements / Limits.elementsPerStep)
    }

    /// Charges `bytes` made or read by a closure; `false` once exhausted.
    func charge(bytes: Int) -> Bool {
        spend(1 + bytes / Limits.bytesPerStep)
    }

    /// Charges a value of `bytes` that a stage sends; `false` once exhausted.
    func charge(sent bytes: Int) -> Bool {
        spend(1 + bytes / Limits.bytesPerStep, sent: bytes)
    }
}

extension PipelineFailure {
    /// The ending of every stream of a program halted by its budget.
    static func budgetExceeded(_ exhaustion: StepBudget.Exhaustion, _ limits: StepBudget.Limits) -> PipelineFailure {
        let message =
            switch exhaustion {
            case .steps:
                "The program was stopped: it did more than \(Int(limits.capacity)) steps (subscriptions, values and the bytes and elements its closures made) at once, or more than \(Int(limits.perSecond)) a second for long."
            case .cpu:
                "The program was stopped: its work took more than \(limits.cpuCapacity) s of its thread's time at once, or more than \(Int(limits.cpuPerSecond * 100)) % of it for long."
            case .memory:
                "The program was stopped: the server's memory ran short, and of the programs running this one sent the most bytes of values lately."
            }
        return PipelineFailure(code: "budget_exceeded", message: message)
    }

    /// A value larger than the program's limit, made at `range`.
    static func valueTooLarge(_ what: String, limit: Int, at range: SourceRange) -> PipelineFailure {
        PipelineFailure(
            code: "value_too_large",
            message:
                "line \(range.line), column \(range.column): \(what) would be larger than \(limit) bytes as JSON, or nested deeper than \(Value.maximumDepth) levels"
        )
    }
}

extension Signal where Value == Pipelines.Value, Failure == PipelineFailure {
    /// This signal, spending a step of `budget` for its subscription and, for each value, a step
    /// and one more per ``StepBudget/Limits/bytesPerStep`` of its JSON; when the budget is out,
    /// nothing more passes (the program is being halted). A value larger than the budget's
    /// ``StepBudget/Limits/valueBytes`` fails the signal with `value_too_large`, naming `name`
    /// (the operator or source that made it) at `range`.
    func spending(_ budget: StepBudget, by name: String, at range: SourceRange) -> Signal {
        Signal { subscriber in
            guard budget.spend() else { return nil }
            return subscribe(
                Subscriber { event in
                    if case .next(let value) = event {
                        guard let size = value.encodedSize(limit: budget.limits.valueBytes) else {
                            guard budget.charge(bytes: budget.limits.valueBytes) else { return }
                            subscriber.send(.error(.valueTooLarge("a value of `\(name)`", limit: budget.limits.valueBytes, at: range)))
                            return
                        }
                        guard budget.charge(sent: size) else { return }
                    }
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }

    /// This signal, spending a step of `budget` for each subscription only: what reading a named
    /// stream, an input or a command's member costs. Their values were paid for by the stage that
    /// sent them, but a reader that subscribes again and again must run out — `s0.repeat()` of a
    /// stream that has ended resubscribed for ever without a step, and kept the program thread
    /// busy for good.
    func spendingOnSubscription(_ budget: StepBudget) -> Signal {
        Signal { subscriber in
            guard budget.spend() else { return nil }
            subscribe(subscriber)
            return nil
        }
    }
}
