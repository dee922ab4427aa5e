import Reactive
import ReactiveTesting
import Testing

@testable import Pipelines

/// Multicast connections in the language — `conn = a.multicast(SUBJECT)`, `conn.signal`,
/// `conn.connect()` and `after(…) { conn.connect() }` — as RAC's `RACMulticastConnection`.
/// Expected events are worked by hand from RAC's semantics, at 100 ms a frame.
@Suite("Multicast connections and the lines that connect them")
struct ConnectionLineTests {
    typealias Recorded = Marbles.Recorded<Value, PipelineFailure>

    /// Two readers of `conn.signal` are two subscribers of one subject; the connect line, after
    /// them, subscribes the source once, and both get every value.
    @Test func aConnectionSubscribesItsSourceOnceForEveryReader() throws {
        let run = try ProgramMarbles.run(
            """
            a = marbles("-1-2-3|")
            conn = a.multicast(subject())
            tens = conn.signal.map { $0 * 10 }
            hundreds = conn.signal.map { $0 * 100 }
            conn.connect()
            """
        )
        let tens: [Recorded] = try Marbles.events("-a-b-c|", values: ["a": 10, "b": 20, "c": 30], error: ProgramMarbles.noFailure)
        let hundreds: [Recorded] = try Marbles.events("-a-b-c|", values: ["a": 100, "b": 200, "c": 300], error: ProgramMarbles.noFailure)
        #expect(run.events("tens") == tens)
        #expect(run.events("hundreds") == hundreds)
        #expect(run.subscriptions("a") == ["^-----!"], "one source subscription, made by connect")
        #expect(run.subscriptions("conn") == ["^-----!", "^-----!"], "two subscribers in the connection's subject")
    }

    /// Connected 200 ms in, the source starts then: its values come 200 ms later than its row
    /// says. A replay subject of capacity 1 gives a reader arriving after the end its last value
    /// and the completion.
    @Test func aLaterConnectStartsTheSourceThen() throws {
        let run = try ProgramMarbles.run(
            """
            a = marbles("-1-2-3|")
            conn = a.multicast(replaySubject(capacity: 1))
            early = conn.signal.map { $0 }
            late = timer(after: 1s).flatMap(.merge) { _ in conn.signal }
            after(200ms) { conn.connect() }
            """
        )
        let early: [Recorded] = [
            .init(frame: 3, event: .next(1)), .init(frame: 5, event: .next(2)), .init(frame: 7, event: .next(3)),
            .init(frame: 8, event: .completed),
        ]
        #expect(run.events("early") == early)
        #expect(run.events("late") == [Recorded(frame: 10, event: .next(3)), Recorded(frame: 10, event: .completed)])
        #expect(run.subscriptions("a") == ["--^-----!"])
    }

    /// Without a connect line nothing flows, as in RAC; the checker says so.
    @Test func anUnconnectedConnectionSendsNothing() throws {
        let text = "a = marbles(\"-1|\")\nconn = a.multicast(subject())\nx = conn.signal.map { $0 }"
        let run = try ProgramMarbles.run(text)
        #expect(run.events("x") == [])
        #expect(run.subscriptions("a") == [])
        #expect(
            PipelineLanguage.check(text).map(\.message)
                == ["`conn` is never connected: its subscribers get nothing until `conn.connect()`"]
        )
    }

    /// A subject line may be the connection's subject: its readers and `conn.signal`'s are
    /// subscribers of the same subject.
    @Test func aSubjectLineCanBeTheConnectionsSubject() throws {
        let run = try ProgramMarbles.run(
            """
            s = subject()
            a = marbles("-1|")
            conn = a.multicast(s)
            viaSubject = s.map { $0 }
            viaConnection = conn.signal.map { $0 }
            conn.connect()
            """
        )
        let expected: [Recorded] = [.init(frame: 1, event: .next(1)), .init(frame: 2, event: .completed)]
        #expect(run.events("viaSubject") == expected)
        #expect(run.events("viaConnection") == expected)
        #expect(run.subscriptions("a") == ["^-!"])
    }

    @Test func mistakesAreNamed() {
        let connection = "a = just(1)\nconn = a.multicast(subject())\nconn.connect()\n"
        #expect(
            buildErrors(connection + "x = conn.map { $0 }")
                == ["`conn` is a connection, not a signal (RAC's RACMulticastConnection)"]
        )
        #expect(buildErrors("a = just(1)\nx = a.multicast(subject()).map { $0 }") == ["a connection is one object, defined on a line of its own"])
        #expect(buildErrors(connection + "x = conn.signal.connect()") == ["`connect()` is a line of its own, not part of a stream"])
        #expect(buildErrors("a = just(1)\nx = a.map { $0 }.signal") == ["only a connection has `signal`"])
        #expect(
            buildErrors("a = just(1)\nx = a.multicast(just(2))\nx.connect()")
                == ["`multicast` sends through a subject: `subject()`, `replaySubject(capacity: 1)` or a subject line's name"]
        )
        #expect(
            buildErrors("a = just(1)\nb = just(2)\nx = a.multicast(b)\nx.connect()") == ["`multicast` sends through a subject, and `b` is not one"]
        )
        #expect(buildErrors("a = just(1)\na.connect()") == ["`a` is not a connection: `connect()` connects one"])
        #expect(PipelineLanguage.check("nowhere.connect()").map(\.message) == ["unknown connection `nowhere`"])
        #expect(
            PipelineLanguage.check("a = just(1)\nafter(1s) { a.subscribe(a) }").map(\.message)
                == ["a line's `after` connects a connection later, up to an hour after the start: `after(0.5s) { conn.connect() }`"]
        )
        #expect(buildErrors("a = just(1)\nx = a.replay(capacity: 1)") == ["`replay` takes no capacity: RAC's replay subject has one"])
        #expect(PipelineLanguage.check("signal = just(1)\nout = signal.map { $0 }").isEmpty, "`signal` is still a stream's name")
        #expect(PipelineLanguage.check(connection + "x = conn.signal\ny = conn.signal").isEmpty, "a connection read twice is shared")
    }

    @Test func theTimeScaleWaitsForALaterConnect() {
        let program = PipelineLanguage.parse("a = marbles(\"-a-b|\")\nconn = a.multicast(subject())\nafter(1s) { conn.connect() }").program
        #expect(TimeScale.milliseconds(of: program, serviceLatency: .zero) == 1_500)
    }
}
