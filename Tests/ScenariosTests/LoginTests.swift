import Testing

@testable import Scenarios

@Suite("Login scenario, in virtual time")
struct LoginTests {
    @Test func fieldsStartInvalidAndValidateOnEveryKeystroke() {
        let login = ScenarioHarness<Login>()
        #expect(login.values("usernameValid") == [.bool(false)], "inputs start with \"\", so state has a value at once")
        #expect(login.values("signInEnabled") == [.bool(false)])
        for text in ["a", "ab", "abc", "abcd"] { login.type("username", text) }
        #expect(
            login.values("usernameValid") == [false, false, false, false, true].map(JSONValue.bool),
            "map emits on every input, repeats included"
        )
    }

    @Test func signInEnabledOnlyWhileBothFieldsAreValid() {
        let login = ScenarioHarness<Login>()
        login.type("username", "abcd")
        #expect(login.latest("signInEnabled") == .bool(false))
        login.type("password", "secret")
        #expect(login.latest("signInEnabled") == .bool(true))
        login.type("password", "sec")
        #expect(login.latest("signInEnabled") == .bool(false))
    }

    @Test func submitWhileDisabledIsAnErrorAndStartsNoSignIn() {
        let login = ScenarioHarness<Login>()
        login.press("submit")
        #expect(login.values("errors").count == 1)
        if case .object(let error) = login.latest("errors") {
            #expect(error["code"] == .string("not_enabled"))
        } else {
            Issue.record("expected an error object")
        }
        #expect(login.values("signingIn") == [.bool(false)], "no sign-in started")
        login.advance(by: 5_000)
        #expect(login.values("signInResult").isEmpty)
    }

    @Test func rightCredentialsSignInAfterAboutASecond() {
        let login = ScenarioHarness<Login>()
        login.type("username", "user")
        login.type("password", "password")
        login.press("submit")
        #expect(login.values("signingIn") == [.bool(false), .bool(true)])
        login.advance(by: 999)
        #expect(login.values("signInResult").isEmpty)
        login.advance(by: 1)
        #expect(login.values("signInResult") == [.bool(true)])
        #expect(login.values("signingIn") == [.bool(false), .bool(true), .bool(false)])
    }

    @Test func otherCredentialsFail() {
        let login = ScenarioHarness<Login>()
        login.type("username", "user")
        login.type("password", "wrong password")
        login.press("submit")
        login.advance(by: 1_000)
        #expect(login.values("signInResult") == [.bool(false)])
    }

    @Test func noConcurrentSignIn() {
        let login = ScenarioHarness<Login>()
        login.type("username", "user")
        login.type("password", "password")
        login.press("submit")
        login.press("submit")
        #expect(login.latest("signInEnabled") == .bool(true), "the fields are still valid")
        #expect(login.values("errors").count == 1, "the second submit is refused while signing in")
        login.advance(by: 1_000)
        #expect(login.values("signInResult") == [.bool(true)])
    }

    @Test func stopEndsEverything() {
        let login = ScenarioHarness<Login>()
        login.type("username", "user")
        login.type("password", "password")
        login.press("submit")
        login.scenario.stop()
        login.clear()
        login.type("username", "other")
        login.advance(by: 5_000)
        #expect(login.all.isEmpty)
    }
}
