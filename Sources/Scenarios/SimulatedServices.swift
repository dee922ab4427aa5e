import Foundation
import Reactive

/// The examples' network services, simulated on the scenario's scheduler so that tests run them in
/// virtual time. Each is a cold signal: subscribing starts a "request", disposing cancels it.
enum SimulatedServices {
    /// The sign-in form's service: `true` only for `user` / `password`, after `latency`.
    static func signIn(username: String, password: String, latency: Duration, on scheduler: any Scheduler) -> Signal<Bool, Never> {
        respond(after: latency, on: scheduler, with: .success(username == "user" && password == "password"))
    }

    /// The subscribe form's service (`postEmail`): `{"subscribed": email}` after `latency`; fails
    /// for addresses at `fail.example`.
    static func postEmail(_ email: String, latency: Duration, on scheduler: any Scheduler) -> Signal<JSONValue, ServiceError> {
        let domain = email.split(separator: "@").last.map { $0.lowercased() } ?? ""
        let result: Result<JSONValue, ServiceError> =
            domain == "fail.example"
            ? .failure(ServiceError(code: "subscribe_failed", message: "The subscribe service refused \(email)."))
            : .success(.object(["subscribed": .string(email)]))
        return respond(after: latency, on: scheduler, with: result)
    }

    /// The instant search's service (RWTwitterInstant): the top matches of `query` in the data set, after
    /// `latency`; a query containing `!fail` fails.
    static func search(_ query: String, in dataSet: SearchDataSet, latency: Duration, on scheduler: any Scheduler) -> Signal<[String], ServiceError> {
        let result: Result<[String], ServiceError> =
            query.contains("!fail")
            ? .failure(ServiceError(code: "search_failed", message: "The search service failed for '\(query)'."))
            : .success(dataSet.topMatches(for: query))
        return respond(after: latency, on: scheduler, with: result)
    }

    private static func respond<Value: Sendable, Failure: Error>(
        after latency: Duration,
        on scheduler: any Scheduler,
        with result: Result<Value, Failure>
    ) -> Signal<Value, Failure> {
        Signal { subscriber in
            scheduler.schedule(after: latency) { subscriber.send(result) }
        }
    }
}

/// A failure of a simulated service.
struct ServiceError: Error, Equatable {
    let code: String
    let message: String

    var info: ErrorInfo { ErrorInfo(code: code, message: message) }
}

/// The search scenario's data set: the ISO 639-3 language names (`SearchData/language-names.txt`,
/// embedded; LGPL-2.1+, see `SearchData/README.md`).
struct SearchDataSet: Sendable {
    /// The bundled data set, parsed once.
    static let languages = SearchDataSet(
        names: String(decoding: PackageResources.language_names_txt, as: UTF8.self).split(separator: "\n").map(String.init)
    )

    let names: [String]
    private let folded: [String]

    init(names: [String]) {
        self.names = names
        folded = names.map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
    }

    /// Up to `limit` names containing `query`, case- and accent-insensitively; names that start
    /// with it come first.
    func topMatches(for query: String, limit: Int = 10) -> [String] {
        let needle = query.trimmingCharacters(in: .whitespaces)
            .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        guard !needle.isEmpty else { return [] }
        var prefixed: [String] = []
        var containing: [String] = []
        for (index, name) in folded.enumerated() where name.contains(needle) {
            if name.hasPrefix(needle) { prefixed.append(names[index]) } else { containing.append(names[index]) }
            if prefixed.count >= limit { break }
        }
        return Array((prefixed + containing).prefix(limit))
    }
}
