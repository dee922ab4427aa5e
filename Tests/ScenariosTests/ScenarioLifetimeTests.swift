import Reactive
import Testing

@testable import Scenarios

/// A stopped scenario lets go of everything: sessions come and go for the life of the server.
@Suite("Scenario lifetimes")
struct ScenarioLifetimeTests {
    @Test(arguments: Catalogue.scenarios.map { ObjectIdentifier($0) })
    func aStoppedScenarioIsReleased(_ id: ObjectIdentifier) throws {
        let type = try #require(Catalogue.scenarios.first { ObjectIdentifier($0) == id })
        weak var weakInstance: (any Scenario)?
        let scheduler = TestScheduler()
        do {
            let instance = type.init(scheduler: scheduler, settings: ScenarioSettings()) { _, _ in }
            weakInstance = instance
            scheduler.advance()
            for input in type.description.inputs where input.kind != .choice {
                let value: InputValue =
                    switch input.kind {
                    case .text: .text("abcd")
                    case .bool: .bool(true)
                    case .number: .number(1)
                    case .choice, .action: .action
                    }
                instance.apply(.next(value), to: input.name)
            }
            scheduler.advance(by: .seconds(2))
            instance.stop()
        }
        scheduler.advance(by: .seconds(5))
        #expect(weakInstance == nil, "\(type) is still alive after stop")
    }
}
