import Testing

@testable import Scenarios

@Suite("Command scenario, in virtual time")
struct CommandScenarioTests {
    @Test func emailValidation() {
        #expect(CommandScenario.isValidEmail("a@b.co"))
        #expect(!CommandScenario.isValidEmail("a@b"))
        #expect(!CommandScenario.isValidEmail("a b@c.d"))
        #expect(!CommandScenario.isValidEmail("@b.co"))
    }

    @Test func enabledAndExecutingWithoutConcurrency() {
        let command = ScenarioHarness<CommandScenario>()
        #expect(command.values("enabled") == [.bool(false)])
        command.type("email", "me@example.com")
        #expect(command.values("enabled") == [.bool(false), .bool(true)])
        command.press("execute")
        #expect(command.values("executing") == [.bool(false), .bool(true)])
        #expect(command.values("enabled") == [.bool(false), .bool(true), .bool(false)])
        command.press("execute")
        #expect(command.values("errors").count == 1, "refused while executing")
        command.advance(by: 1_000)
        #expect(command.values("executionValues") == [.object(["subscribed": .string("me@example.com")])])
        #expect(command.values("executing") == [.bool(false), .bool(true), .bool(false)])
        #expect(command.latest("enabled") == .bool(true))
    }

    @Test func enabledStaysOnWithConcurrency() {
        let command = ScenarioHarness<CommandScenario>()
        command.send("allowsConcurrentExecution", .json(.bool(true)))
        command.type("email", "me@example.com")
        command.press("execute")
        command.advance(by: 500)
        command.press("execute")
        #expect(command.values("errors").isEmpty)
        #expect(command.values("enabled") == [.bool(false), .bool(true)], "no repeats, never off")
        #expect(command.values("executing") == [.bool(false), .bool(true)])
        command.advance(by: 500)
        #expect(command.latest("executing") == .bool(true), "the second execution still runs")
        command.advance(by: 500)
        #expect(command.values("executing") == [.bool(false), .bool(true), .bool(false)])
    }

    @Test func aFailingExecutionIsReportedOnErrors() {
        let command = ScenarioHarness<CommandScenario>()
        command.type("email", "me@fail.example")
        command.press("execute")
        command.clear()  // as if a watcher connected now, after the execution started
        command.advance(by: 1_000)
        guard case .object(let error) = command.latest("errors") else {
            Issue.record("expected an error")
            return
        }
        #expect(error["code"] == .string("subscribe_failed"))
        #expect(command.values("executing") == [.bool(false)])
    }
}
