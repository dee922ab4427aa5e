import Foundation
import Locking
import Reactive

/// Threads and run loops (RACScheduler, NSThread and NSRunLoop): one pipeline delivered on other schedulers with RAC's
/// `deliverOn:` and `subscribeOn:`, every event labelled with the thread that delivered it; and the
/// classic run-loop lesson, made visible — work handed to a thread whose run loop has no source never runs,
/// while the same work on a kept-alive run loop (AFNetworking's network thread) does.
///
/// The other schedulers run real threads, whatever the session's clock; only the "still not run"
/// check is timed on the scenario's scheduler, so it runs in virtual time too. Their streams are
/// sent to the sink from those threads (they end the pipeline: no later stage reads them).
public final class Schedulers: Scenario {
    /// The inputs, each with the object that receives it.
    public static let inputs: [InputDeclaration<Schedulers>] = [
        .action("tap", "Sends the next value into the pipeline.", \.tap),
        .action("scheduleOnBareThread", "Schedules work on a new thread whose run loop has no source.", \.scheduleOnBareThread),
        .action("scheduleOnRunLoop", "Schedules the same work on the run-loop scheduler's kept-alive thread.", \.scheduleOnRunLoop),
    ]

    /// The catalogue entry: inputs, and streams in pipeline order.
    public static let description = PipelineDescription(
        id: "schedulers",
        title: "Schedulers and run loops",
        sourceFile: "Schedulers.swift",
        description: "Threads and run loops, as RACScheduler uses them. Each tap goes down one pipeline and is delivered with "
            + "deliverOn: on a background queue scheduler and on a run-loop thread, and subscribed with subscribeOn: "
            + "on the queue; each event says which thread delivered it. The classic lesson: a thread's run loop "
            + "returns at once when it has no input source, so work scheduled on that thread never runs; "
            + "AFNetworking keeps its network thread's run loop alive with a port, and the same work then runs.",
        inputs: inputs.map(\.description),
        streams: [
            StreamDescription(
                name: "source",
                description: "Each tap, numbered, on the session's own thread.",
                operator: "scan",
                from: ["tap"],
                state: true
            ),
            StreamDescription(
                name: "deliverOnQueue",
                description: "The same values delivered on a serial-queue scheduler.",
                operator: "deliverOn: (QueueScheduler)",
                from: ["source"],
                state: true
            ),
            StreamDescription(
                name: "deliverOnRunLoop",
                description: "The same values delivered on a run-loop scheduler's thread.",
                operator: "deliverOn: (RunLoopScheduler)",
                from: ["source"],
                state: true
            ),
            StreamDescription(
                name: "subscribeOnQueue",
                description: "Per value, a signal subscribed on the queue: where its subscribe closure ran.",
                operator: "flattenMap + subscribeOn:",
                from: ["source"],
                state: true
            ),
            StreamDescription(
                name: "bareThread",
                description: "Work scheduled on a thread whose run loop has no source: scheduled, then still not run.",
                operator: "run loop without a source",
                from: ["scheduleOnBareThread"],
                state: false
            ),
            StreamDescription(
                name: "keptAliveRunLoop",
                description: "The same work on a run loop kept alive by a source: scheduled, then ran.",
                operator: "RunLoopScheduler",
                from: ["scheduleOnRunLoop"],
                state: false
            ),
        ]
    )

    /// How long the page waits before saying that work on the bare thread has not run.
    static let bareThreadCheck = Duration.seconds(1)

    /// The background schedulers, shared by every session of this scenario (a thread each, not per
    /// session). Their events carry the thread names `queue` and `run-loop`.
    static let queueScheduler = QueueScheduler(label: "playground.schedulers.queue")
    static let queue = NamedScheduler(queueScheduler, name: "queue")
    static let runLoop: RunLoopScheduler = {
        let runLoop = RunLoopScheduler(name: "playground.schedulers.run-loop")
        runLoop.schedule { NamedScheduler.nameCurrentThread("run-loop") }  // its thread is its own for good
        return runLoop
    }()

    private let stages: Stages
    private let tap = ActionInput()
    private let scheduleOnBareThread = ActionInput()
    private let scheduleOnRunLoop = ActionInput()

    /// Builds the pipeline on `scheduler`'s thread and starts sending its named streams to `sink`.
    public init(scheduler: any Scheduler, settings: ScenarioSettings, sink: @escaping StreamSink) {
        stages = Stages(sink: sink)
        let home = ThreadLabel.Home()
        let label = { @Sendable (value: String, scheduler: String) -> JSONValue in
            .object(["value": .string(value), "scheduler": .string(scheduler), "thread": .string(ThreadLabel.current(home: home))])
        }
        // Four streams read the taps: shared (`[[… publish] autoconnect]`), so they count once.
        let taps = tap.signal.scan(0) { count, _ in count + 1 }.map { "tap \($0)" }.publish().autoconnect()
        stages.watch("source", taps.map { label($0, "the scenario's scheduler") })
        stages.watch("deliverOnQueue", taps.deliver(on: Self.queue).map { label($0, "QueueScheduler") })
        stages.watch("deliverOnRunLoop", taps.deliver(on: Self.runLoop).map { label($0, "RunLoopScheduler") })
        stages.watch(
            "subscribeOnQueue",
            taps.flatMap(.merge) { tap in
                Signal<JSONValue, Never> { subscriber in
                    subscriber.sendNext(label(tap, "subscribeOn: QueueScheduler"))
                    subscriber.sendCompleted()
                    return nil
                }
                .subscribe(on: Self.queue)
                .promoteError(ErrorInfo.self)
            }
        )
        stages.watch(
            "bareThread",
            scheduleOnBareThread.signal.flatMap(.merge) { _ in
                Self.workOnBareThread(checkingAfter: Self.bareThreadCheck, on: scheduler, home: home).promoteError(ErrorInfo.self)
            }
        )
        stages.watch(
            "keptAliveRunLoop",
            scheduleOnRunLoop.signal.flatMap(.merge) { _ in
                Self.work(on: Self.runLoop, home: home).promoteError(ErrorInfo.self)
            }
        )
    }

    /// Schedules work on `runLoop`: "scheduled", then "ran on …" from the thread that ran it.
    private static func work(on runLoop: RunLoopScheduler, home: ThreadLabel.Home) -> Signal<String, Never> {
        Signal { subscriber in
            subscriber.sendNext("scheduled on the run-loop scheduler's thread")
            return runLoop.schedule {
                subscriber.sendNext("ran on \(ThreadLabel.current(home: home))")
                subscriber.sendCompleted()
            }
        }
    }

    /// Starts a thread that runs its run loop with no input source — `run` returns at once and the
    /// thread ends — then hands work to that run loop (RAC 2's `performSelector:onThread:`). The
    /// work never runs; after `delay` on `scheduler`, the stream says so.
    private static func workOnBareThread(
        checkingAfter delay: Duration,
        on scheduler: any Scheduler,
        home: ThreadLabel.Home
    ) -> Signal<String, Never> {
        Signal { subscriber in
            let bare = BareThread()
            subscriber.sendNext("scheduled on a new thread whose run loop has no source")
            let ran = Lock(false)
            bare.perform {
                ran.withLock { $0 = true }
                subscriber.sendNext("ran on \(ThreadLabel.current(home: home))")
                subscriber.sendCompleted()
            }
            return scheduler.schedule(after: delay) {
                guard !ran.withLock({ $0 }) else { return }
                subscriber.sendNext(
                    "still not run after \(Int(delay / .milliseconds(1))) ms: the run loop had no source, returned at once, and its thread ended"
                )
                subscriber.sendCompleted()
            }
        }
    }

    /// Disposes the whole pipeline.
    public func stop() { stages.stop() }

    /// The longest ``settle()`` waits for one of the shared threads (other sessions' work may be
    /// queued there too, but never much of it).
    static let settleTimeout = DispatchTimeInterval.seconds(1)

    /// Waits until what was handed to the queue and to the run-loop thread before now has run:
    /// each is serial, so a piece of work scheduled behind it runs after it. The bare thread's work
    /// never runs, which is the lesson; nothing waits for it.
    public func settle() {
        for scheduler in [Self.queueScheduler as any Scheduler, Self.runLoop] {
            let done = DispatchSemaphore(value: 0)
            _ = scheduler.schedule { done.signal() }
            _ = done.wait(timeout: .now() + Self.settleTimeout)
        }
    }
}

/// Says which thread the caller runs on, in the scenario's terms.
enum ThreadLabel {
    /// The thread a scenario was built on (the session's thread).
    struct Home: Sendable {
        private let id = ThreadIdentity.current
        var isCurrent: Bool { id == ThreadIdentity.current }
    }

    static func current(home: Home) -> String {
        if home.isCurrent { return "the session's thread" }
        if Schedulers.queueScheduler.isCurrent { return "a Dispatch thread of queue playground.schedulers.queue" }
        if Schedulers.runLoop.isCurrent { return "the run-loop thread playground.schedulers.run-loop" }
        return "another thread"
    }
}

/// A thread whose run loop ran with no input source: `run` returned at once and the thread ended
/// (the classic run-loop lesson). Work handed to its run loop afterwards waits forever.
private final class BareThread: Sendable {
    private let runLoop: RunLoopBox

    /// Starts the thread and waits until its run loop has returned (a thread start: well under a
    /// millisecond). Work handed over before that could still run — a pending block counts as
    /// something to do — which is not the lesson.
    init() {
        let returned = DispatchSemaphore(value: 0)
        let box = Lock<RunLoopBox?>(nil)
        let thread = Thread {
            let runLoop = RunLoop.current
            _ = runLoop.run(mode: .default, before: .distantFuture)  // no source: returns at once
            box.withLock { $0 = RunLoopBox(runLoop: runLoop) }
            returned.signal()
        }
        thread.start()
        returned.wait()
        runLoop = box.withLock { $0! }
    }

    /// Hands `work` to the thread's run loop, as `performSelector:onThread:` would.
    func perform(_ work: @escaping @Sendable () -> Void) {
        runLoop.runLoop.perform(work)
    }
}

/// A run loop handed from its thread to the thread that schedules work on it. `RunLoop.perform`
/// only adds a block under the run loop's own lock, which CoreFoundation allows from any thread.
private struct RunLoopBox: @unchecked Sendable {
    let runLoop: RunLoop
}
