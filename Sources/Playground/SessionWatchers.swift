import Foundation
import Locking
import MicroHTTP

/// The SSE connections watching a session ("watchers"; a "stream" is one of the pipeline's named
/// signals): each starts with a snapshot, or the events after its `Last-Event-ID`, then the live
/// events, under the session's lock, so that none is lost or sent twice.
extension Session {
    /// Adds `watcher`, an SSE connection, to those watching the session: first the snapshot of
    /// the state streams (or, with a `Last-Event-ID`, the buffered events after it, or `reset` and
    /// the snapshot when some are gone), then live events. `since` stands for a `Last-Event-ID` the connection did not send.
    func watch(_ watcher: EventStream, since: Int? = nil) {
        let lastEventID = watcher.lastEventID.map(OutsideNumbers.eventID) ?? since.map { Optional($0) }
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            switch state.log.resumption(after: lastEventID) {
            case .snapshot:
                for entry in state.log.snapshot { watcher.send(entry.frame) }
            case .replay(let after):
                for entry in state.log.kept where entry.event.seq > after { watcher.send(entry.frame) }
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
                state.lastActivity = .now
            }
        }
    }

    var watcherCount: Int { state.withLock { $0.watchers.count } }
}
