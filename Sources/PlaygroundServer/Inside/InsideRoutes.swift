import Foundation
import MicroHTTP
import Store

extension API {
    /// `GET /api/sessions/{sid}/inside?at=MS&since=MS`: the session's RAC objects at `at` (default:
    /// now) and the changes after `since` (default 0) up to it (``InsideGraph``), built on a program
    /// thread — a full log is 20,000 changes to walk.
    func sessionInside(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        let instants: (at: Double?, since: Double)
        switch Self.insideInstants(request) {
        case .failure(let refusal): return refusal.response
        case .success(let read): instants = read
        }
        let at = instants.at ?? session.elapsedMilliseconds
        guard instants.since <= at else { return Self.sinceAfterAt.response }
        return onProgramThread(request) {
            Self.insideAnswer(InsideGraph(session.inside, at: at, since: instants.since))
        }
    }

    /// `GET /api/links/{id}/inside?at=MS&since=MS`: a kept run's objects at `at` (default: its
    /// last change), as `…/inside` answers a live session's, from the record the run kept
    /// (``InsideRecord``); 404 `not_found` for a link that is not a run, or a run kept before runs
    /// kept their objects.
    func linkInside(_ request: HTTPRequest) -> HTTPResponse {
        guard let links else { return Self.storeUnavailable }
        let id = request.parameters["id"] ?? ""
        guard LinkID.isWellFormed(id) else { return Self.linkNotFound }
        let instants: (at: Double?, since: Double)
        switch Self.insideInstants(request) {
        case .failure(let refusal): return refusal.response
        case .success(let read): instants = read
        }
        let (metrics, api) = (self.metrics, self)
        return .deferred { [sessions] respond in
            let queued = links.run(for: request.clientAddress) { store in
                let link: Link?
                do throws(StoreError) {
                    link = try store.link(id)
                } catch {
                    return respond(links.failed(error, metrics))
                }
                guard let link else { return respond(Self.linkNotFound) }
                guard link.kind == .run else { return respond(Self.noObjectsKept) }
                // Decoding and walking up to a quarter of a MiB is kept off the store's thread.
                let placed = sessions.onProgramThread(for: request.clientAddress) {
                    guard let kept = try? JSONDecoder().decode(KeptRun.self, from: Data(link.content.utf8)), let record = kept.inside else {
                        return respond(Self.noObjectsKept)
                    }
                    let at = instants.at ?? (record.changes.last?.t ?? 0)
                    guard instants.since <= at else { return respond(Self.sinceAfterAt.response) }
                    respond(Self.insideAnswer(InsideGraph(InsideLog(record: record), at: at, since: instants.since)))
                }
                if !placed { respond(api.programsWaiting) }
            }
            if !queued { respond(Self.storeBusy(links, metrics)) }
        }
    }

    /// The part of a kept run that holds its objects.
    private struct KeptRun: Decodable {
        let inside: InsideRecord?
    }

    /// The instant (`at`, or the parameter named `instant`) and `since` from the query:
    /// milliseconds, 0 through ``OutsideNumbers/maximumInstant``.
    static func insideInstants(_ request: HTTPRequest, instant: String = "at") -> Result<(at: Double?, since: Double), PlaygroundError> {
        var read: [String: Double] = [:]
        for name in [instant, "since"] {
            guard let text = request.query[name] else { continue }
            guard let value = OutsideNumbers.instant(text) else {
                return .failure(PlaygroundError(.invalidValue, "\(name) takes milliseconds from 0 to \(Int(OutsideNumbers.maximumInstant))."))
            }
            read[name] = value
        }
        return .success((read[instant], read["since"] ?? 0))
    }

    static let sinceAfterAt = PlaygroundError(.invalidValue, "since must not be later than the instant asked for.")
    static let sinceWithoutInside = PlaygroundError(.invalidValue, "since compares with the instant of inside=MS, which is missing.")
    private static let noObjectsKept = PlaygroundError(
        .notFound,
        "This link keeps no objects: it is not a kept run, or it was kept before runs kept theirs."
    ).response

    private static func insideAnswer(_ graph: InsideGraph) -> HTTPResponse {
        let body = (try? InsideGraph.encoder.encode(graph)) ?? Data("{}".utf8)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(body)))
    }
}
