import Testing

@testable import Pipelines

/// A reader of the posts types RAC as they write it; each of RAC's spellings is answered with the
/// language's line for it.
@Suite("RAC's Objective-C spellings answered with the language's")
struct ObjectiveCSpellingTests {
    func first(_ text: String) -> (message: String, hint: String?)? {
        PipelineLanguage.check(text).first.map { ($0.message, $0.hint) }
    }

    @Test func aMessageSendIsAnsweredWithItsLine() {
        let send = first("s = [RACSubject subject]")
        #expect(send?.message == "`[RACSubject subject]` is Objective-C's message send; the language writes RAC as Swift")
        #expect(send?.hint == ObjectiveCSpellings.classes["RACSubject"])
        #expect(first("r = [r replaySubjectWithCapacity: 1]")?.hint == ObjectiveCSpellings.selectors["replaySubjectWithCapacity"])
        #expect(first("x = [a b]")?.hint == "the language writes RAC as Swift does: `a.b(…)`")
    }

    @Test func aClassNameIsAnsweredOnceWithItsLine() {
        let diagnostics = PipelineLanguage.check("r = RACReplaySubject.replaySubjectWithCapacity(1)")
        #expect(diagnostics.map(\.message) == ["unknown name `RACReplaySubject`"], "not also its selector")
        #expect(diagnostics.first?.hint == ObjectiveCSpellings.classes["RACReplaySubject"])
        #expect(first("x = Signal { subscriber in subscriber.sendNext(1) }")?.hint == ObjectiveCSpellings.classes["Signal"])
        #expect(first("a = just(1)\nx = a.subscribeNext { $0 }")?.hint == ObjectiveCSpellings.selectors["subscribeNext"])
    }

    /// Every hint names only what the language has: each suggested line checks clean.
    @Test func everySuggestedLineIsTheLanguages() {
        let lines = [
            "s = subject()", "r = replaySubject(capacity: 1)", "x = createSignal { subscriber in subscriber.sendNext(1) }",
            "ch = channel()", "a = just(1)\nconn = a.multicast(subject())\nconn.connect()",
        ]
        for line in lines { #expect(PipelineLanguage.check(line).filter { $0.severity == .error }.isEmpty, "\(line)") }
    }
}
