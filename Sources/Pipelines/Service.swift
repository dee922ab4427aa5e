import Reactive

/// A function a program may call as a source, such as the scenarios' simulated `search(query)`:
/// given its arguments' values, the signal of one request. The server provides them; a program
/// calling one that is not provided gets a diagnostic.
public struct Service: Sendable {
    /// How many arguments it takes (unlabeled).
    public let arity: Int
    /// What `name(a, b)` is in `usage` messages.
    public let usage: String
    /// The request's signal for these arguments (already `arity` of them), or the failure of
    /// arguments it cannot take (a number where a string is needed, say).
    public let call: @Sendable (_ arguments: [Value]) throws(PipelineFailure) -> Signal<Value, PipelineFailure>

    /// Creates a service.
    public init(
        arity: Int,
        usage: String,
        call: @escaping @Sendable (_ arguments: [Value]) throws(PipelineFailure) -> Signal<Value, PipelineFailure>
    ) {
        self.arity = arity
        self.usage = usage
        self.call = call
    }
}
