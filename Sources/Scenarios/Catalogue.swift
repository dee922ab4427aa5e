/// Every scenario the playground offers, in display order.
public enum Catalogue {
    /// The scenario types.
    public static let scenarios: [any Scenario.Type] = [
        Login.self, Search.self, CommandScenario.self, Binding.self, Multicast.self, Schedulers.self, Ticker.self,
    ]

    /// The scenario type with `id`, or `nil`.
    public static func scenario(withID id: String) -> (any Scenario.Type)? {
        scenarios.first { $0.description.id == id }
    }
}
