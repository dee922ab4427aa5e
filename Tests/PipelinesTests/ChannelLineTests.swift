import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// Channels in the language — `ch = channel()`, `ch.leadingTerminal`, `ch.followingTerminal` —
/// as RAC's `RACChannel`: what one terminal is fed, the other's readers get; the following
/// terminal replays its latest value to a new reader and the leading does not; an end sent into
/// either ends both. Expected events are worked by hand, at 100 ms a frame.
@Suite("Channels and their terminals")
struct ChannelLineTests {
    typealias Recorded = Marbles.Recorded<Value, PipelineFailure>

    @Test func eachTerminalSendsToTheOthersReaders() throws {
        let run = try ProgramMarbles.run(
            """
            ch = channel()
            view = ch.leadingTerminal.map { $0 }
            model = ch.followingTerminal.map { $0 }
            marbles("-a--b").subscribe(ch.leadingTerminal)
            marbles("--x").subscribe(ch.followingTerminal)
            lateModel = timer(after: 600ms).flatMap(.merge) { _ in ch.followingTerminal }
            lateView = timer(after: 600ms).flatMap(.merge) { _ in ch.leadingTerminal }
            """
        )
        #expect(run.events("model") == [Recorded(frame: 1, event: .next("a")), Recorded(frame: 4, event: .next("b"))])
        #expect(run.events("view") == [Recorded(frame: 2, event: .next("x"))])
        #expect(run.events("lateModel") == [Recorded(frame: 6, event: .next("b"))], "the following terminal replays its latest")
        #expect(run.events("lateView") == [], "the leading terminal replays nothing")
        #expect(run.events("ch·followingTerminal").first == Recorded(frame: 1, event: .next("a")), "each terminal's events are kept under its name")
    }

    /// `--x|` into the following terminal: its completion at 300 ms ends the leading subject,
    /// whose end crosses back to the following one, so both sides end then; `b` at 400 ms is
    /// sent into a channel that has ended.
    @Test func anEndSentIntoEitherTerminalEndsBoth() throws {
        let run = try ProgramMarbles.run(
            """
            ch = channel()
            view = ch.leadingTerminal.map { $0 }
            model = ch.followingTerminal.map { $0 }
            marbles("-a--b").subscribe(ch.leadingTerminal)
            marbles("--x|").subscribe(ch.followingTerminal)
            """
        )
        #expect(run.events("model") == [Recorded(frame: 1, event: .next("a")), Recorded(frame: 3, event: .completed)])
        #expect(run.events("view") == [Recorded(frame: 2, event: .next("x")), Recorded(frame: 3, event: .completed)])
    }

    @Test func mistakesAreNamed() {
        #expect(buildErrors("ch = channel()\nx = ch.map { $0 }") == ["`ch` is a channel, not a signal (RAC's RACChannel)"])
        #expect(buildErrors("x = merge(channel(), just(1))") == ["a channel is one object, defined on a line of its own"])
        #expect(buildErrors("a = just(1)\nx = a.leadingTerminal") == ["only a channel has `leadingTerminal`"])
        #expect(
            PipelineLanguage.check("s = subject()\njust(1).subscribe(s.followingTerminal)").map(\.message)
                == ["`s` is not a channel: `followingTerminal` is a channel's"]
        )
        #expect(
            PipelineLanguage.check("ch = channel()\nv = ch.leadingTerminal.map { $0 }\nv.subscribe(ch.followingTerminal)").map(\.message)
                == ["`ch` is defined through itself: `ch` → `v` → `ch`"],
            "a terminal fed what the other terminal sends would send it back for ever"
        )
        let binding = """
            input typed: text
            input clear: action
            ch = channel()
            typed.subscribe(ch.leadingTerminal)
            clear.map { _ in "" }.subscribe(ch.followingTerminal)
            model = ch.followingTerminal.map { $0 }
            view = ch.leadingTerminal.map { $0 }
            """
        #expect(PipelineLanguage.check(binding).isEmpty, "docs/PIPELINES.md's binding, both ways through one channel")
        #expect(PipelineLanguage.check("leadingTerminal = just(1)\nout = leadingTerminal.map { $0 }").isEmpty, "not reserved")
    }
}
