import Foundation

/// A scheduler that owns one long-lived thread running a Foundation run loop: seed 000's lesson
/// (AFNetworking's network thread) as a scheduler.
///
/// A run loop with no input source returns at once, so work handed to a bare thread's run loop never
/// runs. This scheduler keeps its run loop alive with a timer that never fires (Linux has no
/// `NSMachPort`), and runs, in order, on that one thread:
/// - immediate work, from a FIFO queue that a zero-delay timer drains;
/// - delayed and repeating work, as run-loop timers.
/// Work scheduled before the thread's run loop started is kept and runs once it starts.
///
/// Thread safety: `RunLoop` is not `Sendable`. The scheduler's thread is the only one that runs or
/// inspects it; other threads only *add timers* to it, which Foundation forwards to
/// `CFRunLoopAddTimer`, a function CoreFoundation documents as safe from any thread (it takes the
/// run loop's own lock and wakes it).
///
/// The thread ends when the scheduler is released; work still waiting then is dropped.
public final class RunLoopScheduler: Scheduler {
    private let core: RunLoopCore

    private let launchThread: @Sendable () -> Void

    /// Starts a thread named `name` and its run loop.
    public convenience init(name: String = "reactive.run-loop") {
        self.init(name: name, startingThread: true)
    }

    /// Creates the scheduler; tests pass `startingThread: false` to schedule work before the run
    /// loop exists, then call ``startThread()``.
    init(name: String, startingThread: Bool) {
        let core = RunLoopCore()
        self.core = core
        launchThread = {
            let thread = Thread { core.runLoopThread() }
            thread.name = name
            thread.start()
        }
        if startingThread { launchThread() }
    }

    /// Starts the thread of a scheduler created with `startingThread: false` (once).
    func startThread() {
        launchThread()
    }

    deinit { core.stop() }

    /// The time since boot, from the monotonic clock.
    public var now: Duration { .nanoseconds(DispatchTime.now().uptimeNanoseconds) }

    /// Whether the calling thread is this scheduler's thread.
    public var isCurrent: Bool { core.isCurrentThread }

    /// Runs `action` as soon as possible; the disposable cancels it if it has not run (RAC `schedule:`).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let disposable = ActionDisposable()
        core.enqueue {
            if !disposable.isDisposed { action() }
        }
        return disposable
    }

    /// Runs `action` once `delay` has passed; the disposable cancels it (RAC `afterDelay:schedule:`).
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let disposable = ActionDisposable()
        core.addTimer(after: delay.timeInterval, repeating: nil, isCancelled: { disposable.isDisposed }, action)
        return disposable
    }

    /// Runs `action` after `delay`, then every `interval`, until disposed (RAC `after:repeatingEvery:withLeeway:schedule:`).
    @discardableResult
    public func schedule(
        after delay: Duration,
        repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        let disposable = ActionDisposable()
        core.addTimer(after: delay.timeInterval, repeating: max(interval.timeInterval, 0.000_001),
                      isCancelled: { disposable.isDisposed }, action)
        return disposable
    }
}

/// The part the thread holds on to; it must not retain the scheduler, or the scheduler could never
/// be released and stop its thread.
private final class RunLoopCore: Sendable {
    private struct State {
        var runLoop: RunLoopReference?
        var thread: ThreadIdentity?
        var queue: [@Sendable () -> Void] = []
        var timersBeforeStart: [TimerReference] = []
        var keepAlive: TimerReference?
        var drainPending = false
        var isStopped = false
    }

    private let state = Lock(State())

    var isCurrentThread: Bool {
        state.withLock { $0.thread?.isCurrent ?? false }
    }

    /// The body of the scheduler's thread.
    func runLoopThread() {
        let runLoop = RunLoop.current
        // The source that keeps the run loop alive: a timer that never fires.
        let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
        runLoop.add(keepAlive, forMode: .default)
        let early = state.withLock { state -> [TimerReference] in
            state.runLoop = RunLoopReference(runLoop: runLoop)
            state.keepAlive = TimerReference(timer: keepAlive)
            state.thread = ThreadIdentity()
            defer { state.timersBeforeStart = [] }
            return state.timersBeforeStart
        }
        early.forEach { runLoop.add($0.timer, forMode: .default) }
        // `run` returns once no timer is left: after `stop()`, every timer invalidates itself (and
        // the keep-alive timer) when it next fires.
        while runLoop.run(mode: .default, before: .distantFuture) {}
        state.withLock { $0.runLoop = nil }
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let needsDrain = state.withLock { state -> Bool in
            state.queue.append(work)
            defer { state.drainPending = true }
            return !state.drainPending
        }
        if needsDrain {
            addTimer(after: 0, repeating: nil, isCancelled: { false }) { [self] in drain() }
        }
    }

    /// Runs the queued work in FIFO order, on the run-loop thread.
    private func drain() {
        while true {
            let batch = state.withLock { state -> [@Sendable () -> Void] in
                if state.queue.isEmpty { state.drainPending = false }
                defer { state.queue = [] }
                return state.queue
            }
            if batch.isEmpty { return }
            batch.forEach { $0() }
        }
    }

    func addTimer(after delay: Double, repeating interval: Double?, isCancelled: @escaping @Sendable () -> Bool,
                  _ action: @escaping @Sendable () -> Void) {
        let timer = Timer(fire: Date(timeIntervalSinceNow: delay), interval: interval ?? 0,
                          repeats: interval != nil) { [self] timer in
            if let keepAlive = state.withLock({ $0.isStopped ? $0.keepAlive : nil }) {
                keepAlive.timer.invalidate()
                timer.invalidate()
            } else if isCancelled() {
                timer.invalidate()
            } else {
                action()
            }
        }
        let runLoop = state.withLock { state -> RunLoopReference? in
            if state.runLoop == nil { state.timersBeforeStart.append(TimerReference(timer: timer)) }
            return state.runLoop
        }
        runLoop?.add(timer)
    }

    func stop() {
        state.withLock { $0.isStopped = true }
        // Wake the loop so it sees the flag; its remaining timers invalidate themselves when they fire.
        addTimer(after: 0, repeating: nil, isCancelled: { false }) {}
    }
}

/// A run loop reference that crosses threads only to have timers added (see ``RunLoopScheduler``).
private struct RunLoopReference: @unchecked Sendable {
    let runLoop: RunLoop

    func add(_ timer: Timer) {
        runLoop.add(timer, forMode: .default)
    }
}

/// A timer created on one thread and added to the run loop on its thread.
private struct TimerReference: @unchecked Sendable {
    let timer: Timer
}

/// Identifies a thread, to answer "is this the scheduler's thread?".
private struct ThreadIdentity: Sendable {
    private let id = pthread_self()

    var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }
}
