import Reactive

/// A function a program may call as a source, such as the scenarios' simulated `search(query)`:
/// given its arguments' values, the signal of one request. The server provides them; a program
/// calling one that is not provided gets a diagnostic.
public struct Service: Sendable {
    /// What a service does for a call: the request's signal for these arguments (already `arity`
    /// of them), or the failure of arguments it cannot take (a number where a string is needed).
    public typealias Call = @Sendable (_ arguments: [Value]) throws(PipelineFailure) -> Signal<Value, PipelineFailure>

    /// How many arguments it takes (unlabeled).
    public let arity: Int
    /// What `name(a, b)` is in `usage` messages.
    public let usage: String
    /// The request's signal for these arguments (already `arity` of them), or the failure of
    /// arguments it cannot take (a number where a string is needed, say).
    public let call: Call

    /// Creates a service.
    public init(arity: Int, usage: String, call: @escaping Call) {
        self.arity = arity
        self.usage = usage
        self.call = call
    }

    /// The services the language declares, each an entry of its source table
    /// (`SourceTable.swift`): the checker knows their names, the sharing check and the time scale
    /// their costs, without the server that does their work — which gives each its work through
    /// ``declared(_:)``, its `switch` over these cases failing to compile when one is added here.
    public enum Name: String, CaseIterable, Sendable {
        /// `search(query)`: the search scenario's query.
        case search
        /// `signIn(user, password)`: the login scenario's request.
        case signIn
        /// `subscribe(email)`: the command scenario's request.
        case subscribe
        /// `request()`: the multicast scenario's request.
        case request
    }

    /// A service for each the language declares, under its name, with its entry's arity and
    /// usage, doing what `work` gives for it: how a server provides its programs' services, so
    /// that it spells none of the names, arities or usage lines the source table gives.
    public static func declared(_ work: (Name) -> Call) -> [String: Service] {
        var services: [String: Service] = [:]
        for source in LanguageSource.all {
            guard case .service(let name, let arity) = source.kind else { continue }
            services[source.name] = Service(arity: arity, usage: source.usage, call: work(name))
        }
        return services
    }
}
