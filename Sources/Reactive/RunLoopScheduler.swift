import CFutex
import CoreFoundation
import Dispatch
import Foundation
import HeapModule
import Locking

/// A scheduler that owns one long-lived thread running a Foundation run loop: the AFNetworking
/// network-thread lesson of ReactiveCocoa's era, as a scheduler.
///
/// A run loop with no input source returns at once, so work handed to a bare thread's run loop never
/// runs. This scheduler keeps the work in a queue of its own ordered by due time (immediate work is
/// due when it is scheduled), so it runs, in order, on that one thread, and gives its run loop two
/// sources that run everything due: a repeating run-loop timer, the *wake timer*, whose fire date
/// is moved to the earliest delayed work; and a *wake-up source* (a CoreFoundation version-1
/// source on an eventfd) that immediate work signals. Work scheduled before the thread's run loop
/// started is kept and runs once it starts.
///
/// Why two: setting a run-loop timer's fire date from another thread takes the run loop's own lock
/// and re-arms the loop's timer descriptor while holding it, so the woken run-loop thread first
/// sleeps on that lock; and it was done under the scheduler's lock, which the woken thread needs
/// next. Under load every such handoff waits for a core: an input to a playground session, handed
/// from the polling thread, slept twice more on the way. Signalling the eventfd takes no lock.
///
/// Why not a `Foundation.Timer` per piece of work: on Linux (swift-corelibs-foundation, measured on
/// Swift 6.3.1) a timer and its block are never released, fired or invalidated, so every piece of
/// work leaked what its closure captured — about 2 KiB per deleted playground session.
///
/// Thread safety: `RunLoop` and `Timer` are not `Sendable`. The scheduler's thread is the only one
/// that runs its run loop; other threads only signal the eventfd (after leaving the scheduler's
/// lock; a flag under it keeps to one signal until the thread begins to run what is due) or *set
/// the wake timer's fire date*, which Foundation forwards to `CFRunLoopTimerSetNextFireDate`, a
/// function CoreFoundation makes safe from any thread. They set it while holding the scheduler's
/// lock, so fire dates are set in the order the decisions were made. The eventfd is closed only
/// when the last reference to the scheduler's core is gone, so no thread signals a closed (or
/// reused) descriptor.
///
/// The thread ends when the scheduler is released; work still waiting then is dropped (released at once).
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
            let thread = Thread {
                ThreadWork.setName(name)  // for `top -H` and the hostile-programs benchmark's CPU figures
                core.runLoopThread()
            }
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
        core.add(after: 0, repeating: nil, Inspection.carrying(action))
    }

    /// Runs `action` once `delay` has passed; the disposable cancels it (RAC `afterDelay:schedule:`).
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        core.add(after: delay.nanosecondsClamped, repeating: nil, Inspection.carrying(action))
    }

    /// Runs `action` after `delay`, then every `interval`, until disposed (RAC `after:repeatingEvery:withLeeway:schedule:`).
    @discardableResult
    public func schedule(
        after delay: Duration,
        repeatingEvery interval: Duration,
        _ action: @escaping @Sendable () -> Void
    ) -> any Disposable {
        core.add(
            after: delay.nanosecondsClamped,
            repeating: max(interval.nanosecondsClamped, 1_000),
            Inspection.carrying(action)
        )
    }
}

/// The part the thread holds on to; it must not retain the scheduler, or the scheduler could never
/// be released and stop its thread.
private final class RunLoopCore: Sendable {
    /// A place in the queue: due time (uptime nanoseconds), then scheduling order.
    private struct Due: Comparable {
        let deadline: UInt64
        let sequence: UInt64

        static func < (a: Due, b: Due) -> Bool {
            (a.deadline, a.sequence) < (b.deadline, b.sequence)
        }
    }

    /// Scheduled work; removed (and its closure released) when it runs for the last time or is cancelled.
    private struct Work {
        let action: @Sendable () -> Void
        /// Nanoseconds between runs of repeating work.
        let interval: UInt64?
    }

    private struct State {
        /// The scheduler's thread (``ThreadIdentity/current``), once it runs.
        var thread: UInt?
        var wakeTimer: TimerReference?
        /// The wake-up source, once the thread has added it to its run loop; `nil` before, and
        /// where there is no eventfd (then the wake timer runs immediate work too).
        var wakeSource: SourceReference?
        /// The eventfd was signalled and the thread has not yet begun to run what is due.
        var isWakeSignalled = false
        /// The thread is running what is due: work it schedules itself meanwhile needs no signal,
        /// as the firing looks at the queue again after each piece.
        var isFiring = false
        /// The fire date the wake timer was last given (uptime nanoseconds), `nil` for none.
        var armedFor: UInt64?
        var queue = Heap<Due>()
        var work: [UInt64: Work] = [:]
        var sequence: UInt64 = 0
        var isStopped = false
    }

    private let state = Lock(State())
    /// What the wake-up source watches (-1 if there is none).
    private let wakeDescriptor = cwake_create()
    /// The most work run in one firing, so that work scheduling work cannot keep the run loop from
    /// ever returning to its other sources.
    private static let batchLimit = 10_000

    var isCurrentThread: Bool {
        let current = ThreadIdentity.current
        return state.withLock { $0.thread == current }
    }

    /// The body of the scheduler's thread.
    func runLoopThread() {
        let runLoop = RunLoop.current
        // The source that runs delayed work, and keeps the run loop alive where there is no eventfd.
        // Repeating (with an interval it never reaches): a timer that fired once without repeating
        // cannot be re-armed.
        let wakeTimer = Timer(fire: .distantFuture, interval: 1e9, repeats: true) { [self] _ in fire(fromTimer: true) }
        runLoop.add(wakeTimer, forMode: .default)
        let wakeSource = wakeDescriptor >= 0 ? makeWakeSource() : nil
        if let wakeSource { CFRunLoopAddSource(CFRunLoopGetCurrent(), wakeSource, kCFRunLoopDefaultMode) }
        state.withLock { state in
            state.thread = ThreadIdentity.current
            state.wakeTimer = TimerReference(timer: wakeTimer)
            state.wakeSource = wakeSource.map(SourceReference.init)
            state.armedFor = nil
            Self.armLocked(&state)
        }
        // `run` returns once no source is left: when the scheduler stops, the wake timer invalidates itself.
        while runLoop.run(mode: .default, before: .distantFuture) {}
    }

    deinit {
        if wakeDescriptor >= 0 { cwake_close(wakeDescriptor) }
    }

    /// A version-1 run-loop source on the eventfd: the run loop polls the descriptor with its other
    /// sources, reads it (which resets it) when it is signalled, and calls `fire`. It does not
    /// retain the core: the thread does, until its run loop has ended.
    private func makeWakeSource() -> CFRunLoopSource {
        let context = CFRunLoopSourceContext1(
            version: 1,
            info: Unmanaged.passUnretained(self).toOpaque(),
            retain: nil,
            release: nil,
            copyDescription: nil,
            equal: nil,
            hash: nil,
            getPort: { info in Unmanaged<RunLoopCore>.fromOpaque(info!).takeUnretainedValue().wakeDescriptor },
            perform: { info in Unmanaged<RunLoopCore>.fromOpaque(info!).takeUnretainedValue().fire(fromTimer: false) }
        )
        // `CFRunLoopSourceCreate` takes either context by the version-0 type, which is the larger:
        // room for that, holding the version-1 context (CoreFoundation copies it).
        let size = max(MemoryLayout<CFRunLoopSourceContext>.size, MemoryLayout<CFRunLoopSourceContext1>.size)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<CFRunLoopSourceContext>.alignment)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        memory.storeBytes(of: context, as: CFRunLoopSourceContext1.self)
        return CFRunLoopSourceCreate(nil, 0, memory.assumingMemoryBound(to: CFRunLoopSourceContext.self))
    }

    /// Queues `action` to run `delay` nanoseconds from now (then every `interval`, if given).
    func add(after delay: UInt64, repeating interval: UInt64?, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let now = DispatchTime.now().uptimeNanoseconds
        let (sequence, signal) = state.withLock { state -> (UInt64?, Bool) in
            guard !state.isStopped else { return (nil, false) }
            state.sequence += 1
            let due = Due(deadline: now.addingClamped(delay), sequence: state.sequence)
            state.queue.insert(due)
            state.work[due.sequence] = Work(action: action, interval: interval)
            guard delay == 0, state.wakeSource != nil else {
                Self.armLocked(&state)
                return (due.sequence, false)
            }
            if state.isFiring && state.thread == ThreadIdentity.current { return (due.sequence, false) }
            defer { state.isWakeSignalled = true }
            return (due.sequence, !state.isWakeSignalled)
        }
        // Outside the lock, which the woken thread takes first.
        if signal { cwake_signal(wakeDescriptor) }
        guard let sequence else { return ActionDisposable() }
        return ActionDisposable { [weak self] in self?.cancel(sequence) }
    }

    private func cancel(_ sequence: UInt64) {
        let cancelled = state.withLock { state -> Work? in
            let work = state.work.removeValue(forKey: sequence)
            state.work.shrinkIfSparse()
            // Cancelled places stay in the heap until due; rebuild it when they are most of it.
            if state.queue.count > 1_024 && state.queue.count > 2 * state.work.count {
                state.queue = Heap(state.queue.unordered.filter { state.work[$0.sequence] != nil })
            }
            return work
        }
        // Released here, outside the lock: the closure may hold the last reference to something
        // whose deinit takes this lock again (the scheduler itself, whose deinit stops it).
        _ = cancelled
    }

    /// Runs what is due, in order, on the run-loop thread (the wake timer's block, or the wake-up
    /// source's perform function).
    private func fire(fromTimer: Bool) {
        for _ in 0..<Self.batchLimit {
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                // Work scheduled from now on by other threads signals again: this firing may already
                // be past it.
                state.isWakeSignalled = false
                state.isFiring = true
                guard !state.isStopped else { return nil }
                let now = DispatchTime.now().uptimeNanoseconds
                while let due = state.queue.min, due.deadline <= now {
                    state.queue.removeMin()
                    guard let work = state.work[due.sequence] else { continue }
                    if let interval = work.interval {
                        // The next run keeps the timer's phase, skipping runs that were missed.
                        let missed = (now - due.deadline) / interval + 1
                        state.queue.insert(
                            Due(
                                deadline: due.deadline.addingClamped(missed.multipliedClamped(by: interval)),
                                sequence: due.sequence
                            )
                        )
                    } else {
                        state.work[due.sequence] = nil
                        state.work.shrinkIfSparse()
                    }
                    return work.action
                }
                return nil
            }
            guard let next else { break }
            ThreadWork.begin()  // a budget on this thread charges each piece of work its own CPU time
            next()
        }
        state.withLock { state in
            state.isFiring = false
            if state.isStopped {
                state.wakeTimer?.timer.invalidate()
                state.wakeTimer = nil
                if let source = state.wakeSource?.source { CFRunLoopSourceInvalidate(source) }
                state.wakeSource = nil
            } else {
                if fromTimer { state.armedFor = nil }  // it just fired: whatever date it had is spent
                Self.armLocked(&state)
            }
        }
    }

    /// Moves the wake timer's fire date to the earliest due work, unless it is already due by then.
    private static func armLocked(_ state: inout State) {
        guard let timer = state.wakeTimer else { return }  // the thread has not started yet
        let deadline: UInt64? = state.isStopped ? 0 : state.queue.min?.deadline
        guard let deadline else { return }
        if let armed = state.armedFor, armed <= deadline { return }
        state.armedFor = deadline
        let now = DispatchTime.now().uptimeNanoseconds
        let seconds = deadline > now ? Double(deadline - now) / 1e9 : 0
        timer.timer.fireDate = Date(timeIntervalSinceNow: seconds)
    }

    func stop() {
        let dropped = state.withLock { state -> [UInt64: Work] in
            state.isStopped = true
            state.queue = Heap()
            state.armedFor = nil
            Self.armLocked(&state)  // wakes the loop, which then ends its wake timer and so its thread
            defer { state.work = [:] }
            return state.work
        }
        _ = dropped  // released here, outside the lock: a closure's captures may run deinits
    }
}

/// The wake timer, created on the run-loop thread; other threads only set its fire date (see
/// ``RunLoopScheduler``).
private struct TimerReference: @unchecked Sendable {
    let timer: Timer
}

/// The wake-up source, created on the run-loop thread; other threads only signal its eventfd.
private struct SourceReference: @unchecked Sendable {
    let source: CFRunLoopSource
}
