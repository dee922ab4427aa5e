import Foundation
import MicroHTTP

extension API {
    /// `GET /api/sessions/{sid}/inside?at=MS&since=MS`: the session's RAC objects at `at` (default:
    /// now) and the changes after `since` (default 0) up to it (``InsideGraph``), built on a program
    /// thread — a full log is 20,000 changes to walk.
    func sessionInside(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        var instants: [String: Double] = [:]
        for name in ["at", "since"] {
            guard let text = request.query[name] else { continue }
            guard let value = OutsideNumbers.instant(text) else {
                return PlaygroundError(.invalidValue, "\(name) takes milliseconds from 0 to \(Int(OutsideNumbers.maximumInstant)).")
                    .response
            }
            instants[name] = value
        }
        let at = instants["at"] ?? session.elapsedMilliseconds
        let since = instants["since"] ?? 0
        guard since <= at else {
            return PlaygroundError(.invalidValue, "since must not be later than at.").response
        }
        return onProgramThread(request) {
            let graph = InsideGraph(session.inside, at: at, since: since)
            let body = (try? Self.insideEncoder.encode(graph)) ?? Data("{}".utf8)
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: .bytes(Array(body)))
        }
    }

    private static let insideEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
