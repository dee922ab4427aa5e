import Reactive
import Testing

@testable import Scenarios

/// Inputs are declared once, each with the object of the running scenario that receives it, and
/// the catalogue entry is made from those declarations: no input can be listed without being
/// wired, or wired under a misspelt name. What is left to check: no two inputs share a receiver.
@Suite("Scenario inputs")
struct InputWiringTests {
    @Test(arguments: Catalogue.scenarios.map { ObjectIdentifier($0) })
    func everyInputHasAReceiverOfItsOwn(_ id: ObjectIdentifier) throws {
        let type = try #require(Catalogue.scenarios.first { ObjectIdentifier($0) == id })
        let (names, receivers) = Self.receivers(of: type)
        #expect(names == type.description.inputs.map(\.name), "the catalogue lists the declared inputs, in order")
        #expect(Set(receivers).count == receivers.count, "\(type.description.id): two inputs share a receiver")
    }

    private static func receivers<S: Scenario>(of type: S.Type) -> ([String], [ObjectIdentifier]) {
        let scheduler = TestScheduler()
        let instance = S(scheduler: scheduler, settings: ScenarioSettings()) { _, _ in }
        defer { instance.stop() }
        return (S.inputs.map(\.description.name), S.inputs.map { ObjectIdentifier($0.receiver(instance) as AnyObject) })
    }
}
