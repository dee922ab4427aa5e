import Reactive

extension Session {
    /// Runs `work` under the session's inspector: what its RAC objects do is kept in ``inside``.
    func inspected(_ work: () -> Void) {
        Inspection.run(reportingTo: inside, work)
    }

    /// The session's time now, in milliseconds since it started: its virtual clock's or real time.
    var elapsedMilliseconds: Double { inside.now() }

    /// A clock of milliseconds since `origin` on `scheduler`, to a tenth, as events are stamped.
    static func milliseconds(since origin: Duration, on scheduler: any Scheduler) -> @Sendable () -> Double {
        { Double((scheduler.now - origin) / .microseconds(100)).rounded() / 10 }
    }
}
