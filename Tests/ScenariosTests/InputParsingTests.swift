import Testing

@testable import Scenarios

@Suite("Input values against input kinds")
struct InputParsingTests {
    let description = CommandScenario.description

    @Test func textTakesJSONStringsOrRawText() {
        #expect(description.value(for: "email", from: .json(.string("a"))) == .success(.text("a")))
        #expect(description.value(for: "email", from: .text("a b")) == .success(.text("a b")))
        if case .failure(.invalidValue) = description.value(for: "email", from: .json(.int(3))) {
        } else {
            Issue.record("a number is not text")
        }
        let long = String(repeating: "x", count: PipelineDescription.maximumTextLength + 1)
        if case .failure(.invalidValue) = description.value(for: "email", from: .text(long)) {
        } else {
            Issue.record("over-long text must be refused")
        }
    }

    @Test func boolTakesJSONOrText() {
        #expect(description.value(for: "allowsConcurrentExecution", from: .json(.bool(true))) == .success(.bool(true)))
        #expect(description.value(for: "allowsConcurrentExecution", from: .text("true")) == .success(.bool(true)))
        #expect(description.value(for: "allowsConcurrentExecution", from: .text(" FALSE\n")) == .success(.bool(false)))
        if case .failure(.invalidValue) = description.value(for: "allowsConcurrentExecution", from: .text("yes")) {
        } else {
            Issue.record("yes is not a bool")
        }
    }

    @Test func actionsIgnoreTheirValue() {
        #expect(description.value(for: "execute", from: .text("")) == .success(.action))
        #expect(description.value(for: "execute", from: .json(.null)) == .success(.action))
    }

    @Test func unknownInputs() {
        #expect(description.value(for: "nope", from: .text("")) == .failure(.unknownInput("nope")))
    }
}
