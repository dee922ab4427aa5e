import Foundation
import MicroHTTP
import Store

/// What reproduces a session (docs/API.md, "Recordings"): what it runs (a scenario's id, or a
/// program's text and summary), its clock, and the events it kept — its inputs among them, each an
/// `input:NAME` event with its time and value — with how many events it made that are not in the
/// recording (a session keeps a bounded buffer; a recording keeps at most ``maximumBytes`` of it,
/// the newest). `GET /api/sessions/{sid}/recording` answers it; `POST` keeps it as a link of kind
/// `run`, which the page opens as a replay.
enum SessionRecording {
    /// The most bytes a recording's events take: the newest that fit are kept.
    static let maximumBytes = 1 << 20

    /// The recording of `session` as JSON, and how many events it holds and left out.
    static func json(of session: Session, maximumBytes: Int = maximumBytes) -> (json: String, events: Int, lost: Int) {
        let (events, made) = session.keptEvents
        var chosen: [String] = []
        var bytes = 0
        for event in events.reversed() {
            let data = EventJSON.encode(event)
            guard bytes + data.utf8.count + 1 <= maximumBytes else { break }
            bytes += data.utf8.count + 1
            chosen.append(data)
        }
        chosen.reverse()
        let lost = made - chosen.count
        let description = session.definition.description
        var head: [String] = ["\"version\":1"]
        if let summary = session.definition.programSummary {
            head.append("\"pipeline\":" + String(decoding: (try? encoder.encode(summary)) ?? Data("null".utf8), as: UTF8.self))
        } else {
            head.append("\"scenario\":" + EventJSON.json(.string(description.id)))
        }
        head.append("\"title\":" + EventJSON.json(.string(description.title)))
        head.append("\"clock\":\"\(session.clock.rawValue)\"")
        head.append("\"made\":\(made)")
        head.append("\"lost\":\(lost)")
        let program = session.definition.programSummary?.program ?? description.pipeline
        head.append("\"rows\":" + RecordingRows(events: events, inputs: description.inputs, program: program, now: session.virtualTime).json)
        head.append("\"inside\":" + InsideRecord(session.inside).json)
        let json = "{" + head.joined(separator: ",") + ",\"events\":[" + chosen.joined(separator: ",") + "]}"
        return (json, chosen.count, lost)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension API {
    /// A recording route's preflight: `find` (the session's, or a room's), then at most
    /// `--recordings-per-second` of the client's: a recording is up to a MiB to build.
    func readingRecording(_ find: @escaping Router.Finder<Session>) -> Router.Finder<Session> {
        { [recordingReads] request in
            find(&request).unless(
                Self.rateLimited(request, by: recordingReads, "Too many recordings asked for from your address (--recordings-per-second); slow down.")
            )
        }
    }

    /// Keeping a run's preflight: `find`, a JSON body, and a place in the client's rate of links
    /// kept (a run is a link like any other).
    func keepingRun(_ find: @escaping Router.Finder<Session>) -> Router.Finder<Session> {
        { [metrics, linkSaves, recordingReads] request in
            let found = find(&request).unless(Self.jsonOnly(request))
            guard case .proceed = found else { return found }
            if let refusal = Self.rateLimited(request, by: linkSaves, "Too many links kept from your address; slow down.") {
                metrics.linkRefused("rate_limited")
                return .refused(refusal)
            }
            return found.unless(
                Self.rateLimited(request, by: recordingReads, "Too many recordings asked for from your address (--recordings-per-second); slow down.")
            )
        }
    }

    /// `GET /api/sessions/{sid}/recording`: the session's recording (``SessionRecording``), built on
    /// a program thread — up to a MiB of events is no work for the polling thread.
    func sessionRecording(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        onProgramThread(request) {
            let (json, _, _) = SessionRecording.json(of: session)
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(json.utf8)))
        }
    }

    /// `POST /api/sessions/{sid}/recording` (`{"title": …}`, optional; ``runTitle(_:)`` says what
    /// a title may be): the session's recording, built on a program thread, kept as a link of kind
    /// `run` on the store's thread, its title exactly as given.
    func keepRecording(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        let fallback = Self.defaultRunTitle(of: session.definition.description.title)
        var title = fallback
        if !request.body.isEmpty {
            switch Self.jsonObject(request.body) {
            case .failure(let error): return error.response
            case .success(let fields):
                switch Self.runTitle(in: fields, default: fallback) {
                case .failure(let refusal): return refusal.response
                case .success(let given): title = given
                }
            }
        }
        let metrics = self.metrics
        guard let links else {
            metrics.linkRefused("storage_unavailable")
            return Self.storeUnavailable
        }
        let (client, maxBytes, api, kept) = (request.clientAddress, maxStoreBytes, self, title)
        guard sessions.programWork.reserve(for: client) else { return programsWaiting }
        return .deferred { [sessions] respond in
            sessions.onProgramThread(reservedFor: client) {
                let (json, _, _) = SessionRecording.json(of: session)
                if let refusal = api.linkBytesRefusal(json.utf8.count + kept.utf8.count, for: client) { return respond(refusal) }
                let link = NewLink(kind: .run, title: kept, content: json, from: nil)
                let queued = links.run(for: client) { _ in
                    let response = Self.keep(link, in: links, within: maxBytes, lessons: [], metrics: metrics)
                    respond(response)
                    if response.status == 201 { links.measureIfDue(metrics) }
                }
                if !queued { respond(Self.storeBusy(links, metrics)) }
            }
        }
    }
}
