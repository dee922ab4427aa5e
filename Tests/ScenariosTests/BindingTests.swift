import Testing

@testable import Scenarios

@Suite("Binding scenario, in virtual time")
struct BindingScenarioTests {
    @Test func bothFieldsStartWithTheModelsName() {
        let binding = ScenarioHarness<Binding>()
        #expect(binding.values("fieldA") == [.string(""), .string("Ada")], "the model's value wins at binding")
        #expect(binding.values("fieldB") == [.string(""), .string("Ada")])
        #expect(binding.values("name") == [.string("Ada")])
        #expect(binding.values("label") == [.string(""), .string("Hello, Ada!")], "bound one way after it is observed")
    }

    @Test func typingIntoAUpdatesTheModelBAndTheLabelWithNoEchoIntoA() {
        let binding = ScenarioHarness<Binding>()
        binding.clear()
        binding.type("fieldA", "Grace")
        #expect(binding.values("fieldA") == [.string("Grace")], "typed once, never sent back")
        #expect(binding.values("name") == [.string("Grace")])
        #expect(binding.values("fieldB") == [.string("Grace")])
        #expect(binding.values("label") == [.string("Hello, Grace!")])
        #expect(binding.all.map(\.stream) == ["fieldA", "name", "label", "fieldB"], "one event each, depth first")
    }

    @Test func typingIntoBUpdatesA() {
        let binding = ScenarioHarness<Binding>()
        binding.clear()
        binding.type("fieldB", "Linus")
        binding.type("fieldB", "")
        #expect(binding.values("fieldA") == [.string("Linus"), .string("")])
        #expect(binding.values("fieldB") == [.string("Linus"), .string("")])
        #expect(binding.values("label") == [.string("Hello, Linus!"), .string("Who are you?")])
    }

    @Test func completingAFieldEndsOnlyItsStream() {
        let binding = ScenarioHarness<Binding>()
        binding.complete("fieldA")
        #expect(binding.terminations.map(\.stream) == ["fieldA"])
        binding.clear()
        binding.type("fieldB", "Barbara")
        #expect(binding.values("name") == [.string("Barbara")])
        #expect(binding.values("fieldA").isEmpty, "an ended stream sends nothing more")
    }
}
