import Reactive

extension Session {
    /// Runs `work` under the session's inspector: what its RAC objects do is kept in ``inside``,
    /// and streamed, once it is done, to the watchers that ask (``InsideFeed``). Never called
    /// under the session's lock.
    func inspected(_ work: () -> Void) {
        Inspection.run(reportingTo: inside, work)
        state.withLock { state in
            guard !state.isClosed else { return }
            state.insideFeed.flush(inside, lastEvent: state.log.nextSeq - 1)
        }
    }

    /// The session's time now, in milliseconds since it started: its virtual clock's or real time.
    var elapsedMilliseconds: Double { inside.now() }

    /// A clock of milliseconds since `origin` on `scheduler`, to a tenth, as events are stamped.
    static func milliseconds(since origin: Duration, on scheduler: any Scheduler) -> @Sendable () -> Double {
        { Double((scheduler.now - origin) / .microseconds(100)).rounded() / 10 }
    }
}

extension InsideLog {
    /// Work that stops `instance` under this log and lets go of it there too: the objects its stop
    /// frees are freed inside the inspection, so that the log sees them go. The work holds the
    /// instance through a box it empties: had it captured the instance, they would be freed with
    /// the closure, after the inspection ended, and look alive for ever.
    func stopping(_ instance: any SessionInstance) -> @Sendable () -> Void {
        let held = Held(instance)
        return { [self] in
            Inspection.run(reportingTo: self) {
                held.instance?.stop()
                held.instance = nil
            }
        }
    }

    /// The one reference to a stopping instance, emptied inside the inspection. Used by one
    /// piece of work on the session's thread only.
    private final class Held: @unchecked Sendable {
        var instance: (any SessionInstance)?
        init(_ instance: any SessionInstance) { self.instance = instance }
    }
}
