import Pipelines
import Reactive
import Scenarios

extension Services {
    /// These services as a program's sources (docs/PIPELINES.md): `search(query)`,
    /// `signIn(user, password)`, `subscribe(email)` and `request()`, each a cold signal of
    /// `Value`s failing with a ``Pipelines/PipelineFailure`` of the service's own code. What a
    /// program session, `POST /api/marbles` and a test written by "Copy as a test" run. Their
    /// names, arities and usage lines are the language's source table's (``Pipelines/Service/declared(_:)``):
    /// this gives each its work, and a service the language declares without work here does not compile.
    public var programServices: [String: Service] {
        @Sendable func text(_ value: Pipelines.Value, _ service: Service.Name) throws(PipelineFailure) -> String {
            guard case .string(let text) = value else {
                throw PipelineFailure(code: "invalid_argument", message: "`\(service.rawValue)` takes text")
            }
            return text
        }
        @Sendable func converted(_ signal: Signal<JSONValue, ErrorInfo>) -> Signal<Pipelines.Value, PipelineFailure> {
            signal.map(Pipelines.Value.init).mapError { PipelineFailure(code: $0.code, message: $0.message) }
        }
        return Service.declared { service -> Service.Call in
            switch service {
            case .search:
                { arguments throws(PipelineFailure) in converted(search(try text(arguments[0], service))) }
            case .signIn:
                { arguments throws(PipelineFailure) in
                    converted(signIn(username: try text(arguments[0], service), password: try text(arguments[1], service)))
                }
            case .subscribe:
                { arguments throws(PipelineFailure) in converted(subscribe(email: try text(arguments[0], service))) }
            case .request:
                { _ throws(PipelineFailure) in converted(request()) }
            }
        }
    }
}

extension Pipelines.Value {
    /// The playground's JSON as a program's value.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .number(Double(number))
        case .double(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let values): self = .array(values.map(Self.init))
        case .object(let fields): self = .object(fields.mapValues(Self.init))
        }
    }

    /// The value as the playground's JSON: whole numbers as integers.
    public var json: JSONValue {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number):
            number.rounded() == number && abs(number) < 9_007_199_254_740_992 ? .int(Int(number)) : .double(number)
        case .string(let text): .string(text)
        case .array(let values): .array(values.map(\.json))
        case .object(let fields): .object(fields.mapValues(\.json))
        }
    }
}
