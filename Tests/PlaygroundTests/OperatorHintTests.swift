import Foundation
import Pipelines
import Testing

@testable import PlaygroundServer

/// Other libraries' names for this language's operators, from the gallery's entries (the one
/// table its search reads), as the checker's hint for an unknown operator.
@Suite("Other libraries' operator names")
struct OperatorHintTests {
    let hints: [String: String]

    init() throws {
        hints = try GalleryIndex(publicRoot: APITests.publicFolder).operatorHints
    }

    func hint(_ program: String) -> String? {
        PipelineLanguage.check(program, hints: hints).first { $0.message.hasPrefix("unknown operator") }?.hint
    }

    @Test func aNameOfEachFieldIsReadFromItsSpelling() {
        #expect(GalleryIndex.identifiers(in: "take(first:)") == ["take"])
        #expect(GalleryIndex.identifiers(in: "map + throw") == ["map"])
        #expect(GalleryIndex.identifiers(in: "switchAll / mergeAll(n)") == ["switchAll", "mergeAll"])
        #expect(GalleryIndex.identifiers(in: "— (afterDelay:schedule:)") == [])
    }

    @Test func theNamesTheIssueListsAreAnswered() throws {
        let expected = [
            "debounce": "`throttle`", "debounceTime": "`throttle`", "throttleTime": "`rateLimit`", "switchMap": "`flatMap(.latest)`",
            "mergeMap": "`flatMap(.merge)`", "withLatestFrom": "`withLatest(from:)`", "distinctUntilKeyChanged": "`distinctUntilChanged`",
            "share": "`publish().autoconnect()`", "removeDuplicates": "`distinctUntilChanged`", "toArray": "`collect`",
        ]
        for (name, spelling) in expected {
            let said = try #require(hint("q = marbles(\"-a|\")\nout = q.\(name)()"), "\(name)")
            #expect(said.contains("`\(name)`: here it is \(spelling)"), "\(name): \(said)")
        }
        #expect(try #require(hint("q = marbles(\"-a|\")\nout = q.debounce(1s)")).contains("RAC's throttle is a debounce"))
    }

    @Test func aMisspellingStillGetsItsSuggestionAndOwnNamesNoHint() {
        #expect(hint("q = marbles(\"-a|\")\nout = q.thrtle(1s)") == "did you mean `throttle`?")
        #expect(PipelineLanguage.check("q = marbles(\"-a|\")\nout = q.throttle(1s)", hints: hints).isEmpty)
        #expect(hint("q = marbles(\"-a|\")\nout = q.debounce(1s)") != nil)
        #expect(PipelineLanguage.check("q = marbles(\"-a|\")\nout = q.debounce(1s)").first?.hint == "docs/PIPELINES.md lists the operators")
    }
}
