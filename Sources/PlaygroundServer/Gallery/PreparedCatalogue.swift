import Foundation
import MicroHTTP
import Pipelines
import Reactive
import Scenarios

/// The catalogue's JSON, prepared once per server (a prepared response bakes in the headers of
/// the first server that serves it).
final class PreparedCatalogue: Sendable {
    /// `GET /api/scenarios`.
    let all: PreparedResponse
    /// `GET /api/scenarios/{id}`, by id.
    let entries: [String: PreparedResponse]

    init() {
        func prepared(_ response: HTTPResponse) -> PreparedResponse {
            var body: [UInt8] = []
            if case .bytes(let bytes) = response.body { body = bytes }  // what `.json` makes
            return PreparedResponse(status: response.status, headers: response.headers, body: body)
        }
        all = prepared(.json(CatalogueBody(scenarios: Catalogue.scenarios.map { $0.description })))
        entries = Dictionary(uniqueKeysWithValues: Catalogue.scenarios.map { ($0.description.id, prepared(.json($0.description))) })
    }
}
