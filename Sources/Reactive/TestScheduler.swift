import HeapModule
import Locking

/// A scheduler with virtual time, for deterministic tests of time-based behaviour
/// (ReactiveSwift's `TestScheduler`; RAC 2.x's `RACTestScheduler`).
///
/// Nothing runs until the clock is moved with ``advance(by:)``, ``advance(to:)`` or ``run()``; then
/// due work runs on the calling thread, in order of due time and, at equal times, in the order it
/// was scheduled. Work that schedules more work at a time already reached runs in the same advance.
///
/// Scheduled work is kept in a heap ordered by due time and then by order of scheduling, so a
/// clock with many timers (a program's marble diagrams, say) takes O(log n) a piece of work.
public final class TestScheduler: Scheduler {
    private struct Item: Comparable {
        let due: Duration
        let sequence: UInt64
        let action: @Sendable () -> Void
        let disposable: ActionDisposable

        static func == (lhs: Item, rhs: Item) -> Bool { lhs.sequence == rhs.sequence }
        static func < (lhs: Item, rhs: Item) -> Bool { (lhs.due, lhs.sequence) < (rhs.due, rhs.sequence) }
    }

    private struct State {
        var now: Duration = .zero
        var items = Heap<Item>()
        var sequence: UInt64 = 0
    }

    private let state = Lock(State())

    /// Creates a scheduler whose virtual clock starts at zero.
    public init() {}

    /// The virtual time.
    public var now: Duration { state.withLock { $0.now } }

    /// Runs `action` as soon as possible; the disposable cancels it if it has not run (RAC `schedule:`).
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(after: .zero, action)
    }

    /// Runs `action` once `delay` has passed; the disposable cancels it (RAC `afterDelay:schedule:`).
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let disposable = ActionDisposable()
        state.withLock { state in
            state.sequence += 1
            state.items.insert(
                Item(
                    due: state.now + max(delay, .zero),
                    sequence: state.sequence,
                    action: Inspection.carrying(action),
                    disposable: disposable
                )
            )
        }
        return disposable
    }

    /// Moves the clock forward by `interval`, running everything due on the way.
    public func advance(by interval: Duration = .zero) {
        advance(to: now + interval)
    }

    /// Moves the clock to `time`, running everything due until then, in order.
    public func advance(to time: Duration) {
        while let item = takeNext(dueBy: time) {
            if !item.disposable.isDisposed { item.action() }
        }
        state.withLock { $0.now = max($0.now, time) }
    }

    /// Moves the clock to `time`, running due work in order, but at most `maximumSteps` pieces of
    /// it: a budget for clocks that outsiders move. Returns `false` when the budget ran out first;
    /// the clock then stands at the due time of the last work that ran, and the rest stays scheduled.
    @discardableResult
    public func advance(to time: Duration, maximumSteps: Int) -> Bool {
        var steps = 0
        while steps < maximumSteps, let item = takeNext(dueBy: time) {
            if !item.disposable.isDisposed {
                item.action()
                steps += 1
            }
        }
        if steps == maximumSteps, let due = nextDueTime, due <= time { return false }
        state.withLock { $0.now = max($0.now, time) }
        return true
    }

    /// Runs the earliest scheduled piece of work, moving the clock to its due time; returns `false`
    /// if none was scheduled (RAC `-[RACTestScheduler step]`). Cancelled work is skipped, not run.
    @discardableResult
    public func step() -> Bool {
        step(dueBy: nil)
    }

    /// Runs the earliest piece of work due by `time` (any, for `nil`), moving the clock to its due
    /// time; returns `false` if none was. Cancelled work is skipped, not run — and never makes
    /// later work run early. For a clock that must stop between two pieces of work (a debugger's).
    @discardableResult
    public func step(dueBy time: Duration?) -> Bool {
        while let item = takeNext(dueBy: time) {
            guard !item.disposable.isDisposed else { continue }
            item.action()
            return true
        }
        return false
    }

    /// Runs the earliest `count` pieces of scheduled work, one ``step()`` at a time; returns how
    /// many ran — fewer if the schedule ran dry (RAC `-[RACTestScheduler step:]`).
    ///
    /// - Precondition: `count` is not negative.
    @discardableResult
    public func step(_ count: Int) -> Int {
        precondition(count >= 0, "step(_:) needs a count of at least 0, not \(count)")
        var steps = 0
        while steps < count, step() { steps += 1 }
        return steps
    }

    /// When the earliest scheduled work is due, or `nil` when none is scheduled.
    public var nextDueTime: Duration? {
        state.withLock { state in state.items.min?.due }
    }

    /// Runs everything scheduled, moving the clock as far as needed. Repeating work never ends, so
    /// do not call this while any is scheduled.
    public func run() {
        while let item = takeNext(dueBy: nil) {
            if !item.disposable.isDisposed { item.action() }
        }
    }

    private func takeNext(dueBy limit: Duration?) -> Item? {
        state.withLock { state in
            guard let item = state.items.min else { return nil }
            if let limit, item.due > limit { return nil }
            state.items.removeMin()
            state.now = max(state.now, item.due)
            return item
        }
    }
}
