import Testing

@testable import Scenarios

/// Completing and failing inputs (`?event=completed|error`): `|` and `#` travel down a pipeline.
@Suite("Completing and failing inputs, in virtual time")
struct InputEndTests {
    private let searchStreams = ["validQuery", "throttled", "searching", "results", "cancelled", "errors"]

    @Test func completingTheQueryEndsEverySearchStreamInPipelineOrder() {
        let search = ScenarioHarness<Search>()
        search.type("query", "french")
        search.complete("query")
        // RAC's throttle sends its pending value at once on completion; the search still runs.
        #expect(search.values("throttled") == [.string("french")])
        #expect(search.terminations.map(\.stream) == ["validQuery", "throttled"])
        search.advance(by: 1_000)
        #expect(search.values("results").count == 1, "the last search finishes before the end")
        #expect(search.terminations.map(\.stream) == searchStreams)
        #expect(search.terminations.allSatisfy { $0.event == .completed })
    }

    @Test func failingTheQueryFailsEveryStreamWithTheInputsError() {
        let search = ScenarioHarness<Search>()
        search.type("query", "fre")
        let failure = ErrorInfo(code: "input_failed", message: "the keyboard broke")
        search.fail("query", failure)
        #expect(search.values("throttled").isEmpty, "an error drops the pending throttled value")
        #expect(search.terminations.map(\.stream) == searchStreams)
        #expect(search.terminations.allSatisfy { $0.event == .error(ErrorInfo(code: "input_failed", message: "the keyboard broke")) })
    }

    @Test func aValueAfterTheEndIsIgnored() {
        let search = ScenarioHarness<Search>()
        search.complete("query")
        let before = search.all.count
        search.type("query", "german")
        search.advance(by: 2_000)
        #expect(search.all.count == before)
    }

    @Test func completingASignInFieldEndsItsValidationAndTheEnabledSignal() {
        let login = ScenarioHarness<Login>()
        login.type("username", "user")
        login.complete("username")
        #expect(login.terminations.map(\.stream) == ["usernameValid"])
        login.complete("password")
        #expect(login.terminations.map(\.stream) == ["usernameValid", "passwordValid", "signInEnabled"])
        login.complete("submit")
        // With the button gone, nothing can execute the command: it is released, and a released
        // command completes its signals (RACCommand), so the whole form has ended.
        #expect(login.terminations.map(\.stream).suffix(3) == ["errors", "signInResult", "signingIn"])
    }

    @Test func failingTheEmailDisablesTheCommand() {
        let command = ScenarioHarness<CommandScenario>()
        command.type("email", "a@b.example")
        #expect(command.latest("enabled") == .bool(true))
        command.fail("email", ErrorInfo(code: "input_failed", message: "gone"))
        #expect(command.terminations.map(\.stream) == ["emailValid"])
        #expect(command.latest("enabled") == .bool(false), "a failed enabled signal counts as not enabled")
    }
}
