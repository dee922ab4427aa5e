import Foundation
import Locking
import MicroHTTP

/// The SSE connections watching a session ("watchers"; a "stream" is one of the pipeline's named
/// signals): each starts with a snapshot, or the events after its `Last-Event-ID`, then the live
/// events, under the session's lock, so that none is lost or sent twice.
extension Session {
    /// Adds `watcher`, an SSE connection, to those watching the session: first the snapshot of
    /// the state streams (or, with a `Last-Event-ID`, the buffered events after it, or `reset` and
    /// the snapshot when some are gone), then live events; `inside`, its RAC objects' changes too
    /// (``InsideFeed``), those after the `Last-Event-ID` first. `since` stands for a
    /// `Last-Event-ID` the connection did not send.
    func watch(_ watcher: EventStream, since: OutsideNumbers.ResumePoint? = nil, inside asked: Bool = false) {
        let resume = watcher.lastEventID.map(OutsideNumbers.resumePoint) ?? since.map { Optional($0) }
        let lastEventID = resume.map { $0?.event }
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            switch state.log.resumption(after: lastEventID) {
            case .snapshot:
                for entry in state.log.snapshot { watcher.send(entry.frame) }
            case .replay(let after):
                // With the changes to catch up on too, the events take half the queue, not three quarters.
                Self.catchUp(watcher, with: state.log, after: after, budget: asked ? watcher.queueLimit / 2 : watcher.queueLimit / 4 * 3)
            case .reset:
                watcher.send(
                    ServerSentEvent(
                        data: #"{"reason":"events after Last-Event-ID are no longer buffered"}"#,
                        event: "reset"
                    )
                )
                for entry in state.log.snapshot { watcher.send(entry.frame) }
            }
            state.watchers[ObjectIdentifier(watcher)] = watcher
            if asked { watchInside(watcher, resuming: resume, &state) }
            state.lastActivity = .now
            return true
        }
        guard accepted else {
            watcher.close()
            return
        }
        // Strong and by identifier: a weak capture is a box of its own, and a weak reference to the
        // connection would give it a side table. The cycle through it ends when it does (and
        // ending the session closes its connections).
        let id = ObjectIdentifier(watcher)
        watcher.onTermination { [self] in
            state.withLock { state in
                state.watchers[id] = nil
                state.insideFeed.remove(id)
                state.lastActivity = .now
            }
        }
    }

    /// The session's event stream, as a path: a room's session is watched through its room, whose
    /// keys decide who sees it.
    var eventsPath: String { room.map { "/api/rooms/\($0)/session/events" } ?? "/api/sessions/\(id)/events" }
    /// Where its inputs are posted: this path followed by an input's name (a room's, by its teacher).
    var inputsPath: String { room.map { "/api/rooms/\($0)/inputs/" } ?? "/api/sessions/\(id)/inputs/" }

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Sends `watcher` the buffered events after `after`. All of them are queued at once, so
    /// when they are more than the stream may queue (`--sse-queue-bytes`), the stream would be
    /// closed as too slow before its client read any — and the client, never having seen an
    /// event, would ask again from the same place, for ever. So they take at most three quarters
    /// of the queue (the rest is room for live events meanwhile); beyond it the watcher gets
    /// `reset`, the latest value of each state stream from before, and the newest events that fit.
    private static func catchUp(_ watcher: EventStream, with log: EventLog, after: Int, budget: Int) {
        var bytes = 0
        var first = log.kept.endIndex
        for index in log.kept.indices.reversed() where log.kept[index].event.seq > after {
            bytes += log.kept[index].frame.frame.utf8.count
            guard bytes <= budget else { break }
            first = index
        }
        let newest = log.kept[first...]
        let oldestSent = newest.first?.event.seq ?? log.nextSeq
        if log.kept[..<first].contains(where: { $0.event.seq > after }) {
            watcher.send(
                ServerSentEvent(
                    data: #"{"reason":"the events after Last-Event-ID are more than this stream may queue; the newest follow"}"#,
                    event: "reset"
                )
            )
            for entry in log.snapshot where entry.event.seq < oldestSent { watcher.send(entry.frame) }
        }
        for entry in newest { watcher.send(entry.frame) }
    }

    /// Adds `watcher` to the watchers of the RAC objects' changes: first those after its resume
    /// point — `E.N`'s `N`, or what was streamed before event `E` — in a quarter of its queue; a
    /// `reset` frame when they cannot all be sent (`GET …/inside` gives the objects now).
    private func watchInside(_ watcher: EventStream, resuming resume: OutsideNumbers.ResumePoint??, _ state: inout State) {
        let lastEvent = state.log.nextSeq - 1
        var after: Int?
        if case .some(.some(let point)) = resume {
            // Event 0 is the start: every change follows it.
            after = point.change ?? (point.event == 0 ? 0 : state.log.kept.last { $0.event.seq == point.event }?.insideThrough)
        }
        let missed = resume != nil && after == nil
        state.insideFeed.add(watcher, inside, lastEvent: lastEvent) { through in
            guard let after, after <= through else {
                if missed || after != nil { watcher.send(InsideFeed.missedChanges) }
                return
            }
            InsideFeed.catchUp(watcher, inside, after: after, through: through, lastEvent: lastEvent, budget: watcher.queueLimit / 4)
        }
    }
}
