import Foundation
import Logging
import MicroHTTP
import Scenarios
import Testing

@testable import PlaygroundServer

/// RAC's own constructs typed as its sources write them — `createSignal`, replay subjects,
/// multicast connections, channels — through `POST /api/marbles` and a live session, each
/// against events worked by hand at 100 ms a frame.
@Suite("RAC's constructs end to end")
struct RACConstructsEndToEndTests {
    let router: Router

    init() throws {
        router = try TestRouter.make { $0.marbleRuns = ClientRateLimiter(perSecond: 0.001, burst: 1_000) }
    }

    /// Each stream's events as (kind, time, value) and its subscriptions, as the page reads them.
    func drawn(_ program: String) -> [String: (events: [String], subscriptions: [String], sources: [String: [String]])] {
        let response = TestRouter.respond(router, to: HTTPRequest(method: .post, rawPath: "/api/marbles", body: Array(program.utf8)))
        #expect(response.status == 200, "\(TestRouter.json(response))")
        let streams = TestRouter.json(response)["streams"] as? [String: [String: Any]] ?? [:]
        return streams.mapValues { stream in
            let events = (stream["events"] as? [[String: Any]] ?? []).map { event in
                let value = event["value"].map { "\($0)" } ?? ""
                return "\(event["kind"] ?? "")@\(event["time"] ?? "")\(value.isEmpty ? "" : " \(value)")"
            }
            return (events, stream["subscriptions"] as? [String] ?? [], stream["sources"] as? [String: [String]] ?? [:])
        }
    }

    /// The same program in a live session on a virtual clock moved `milliseconds`: each
    /// stream's values and ends, in `drawn`'s form.
    func live(_ program: String, for milliseconds: Int = 2_000) throws -> [String: [String]] {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        defer { store.closeAll(reason: "draining") }
        let router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/pipelines", query: ["clock": "virtual"], body: Array(program.utf8))
        )
        #expect(created.status == 201, "\(TestRouter.json(created))")
        let id = try #require(TestRouter.json(created)["session"] as? String)
        let session = try #require(store.session(id))
        let advance = HTTPRequest(method: .post, rawPath: "/api/sessions/\(id)/inputs/advance", body: Array("\(milliseconds)".utf8))
        #expect(TestRouter.respond(router, to: advance).status == 202)
        session.settle()
        var streams: [String: [String]] = [:]
        for event in session.recordedEvents() where [.next, .completed, .error].contains(event.kind) {
            let value = event.valueJSON.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed) }
            let time = event.t.rounded() == event.t ? "\(Int(event.t))" : "\(event.t)"
            streams[event.stream, default: []].append("\(event.kind.rawValue)@\(time)\(value.map { " \($0)" } ?? "")")
        }
        return streams
    }

    @Test func aCreatedSignalRunsItsBlockOncePerSubscription() throws {
        let program = """
            s = createSignal { subscriber in
                subscriber.sendNext(1)
                after(100ms) { subscriber.sendNext(2); subscriber.sendCompleted() }
            }
            ones = s.map { $0 }
            tens = s.map { $0 * 10 }
            """
        let drawn = drawn(program)
        #expect(drawn["s"]?.subscriptions == ["^!", "^!"], "two subscriptions, two runs of the block")
        #expect(drawn["ones"]?.events == ["next@0 1", "next@100 2", "completed@100"])
        #expect(drawn["tens"]?.events == ["next@0 10", "next@100 20", "completed@100"])
        let live = try live(program)
        #expect(live["ones"] == drawn["ones"]?.events && live["tens"] == drawn["tens"]?.events, "\(live)")
    }

    @Test func aReplaySubjectGivesALateSubscriberItsLastTwo() throws {
        let program = """
            r = replaySubject(capacity: 2)
            marbles("-a-b-c|").subscribe(r)
            late = timer(after: 500ms).flatMap(.merge) { _ in r }
            """
        let drawn = drawn(program)
        #expect(drawn["late"]?.events == ["next@500 b", "next@500 c", "completed@600"])
        #expect(try live(program)["late"] == drawn["late"]?.events)
    }

    /// Two readers, one source subscription; a reader arriving at 250 ms, after `connect()`,
    /// misses the 1 sent at 100 ms.
    @Test func aConnectionSubscribesItsSourceOnceAndALateReaderMissesWhatWasSent() throws {
        let program = """
            a = marbles("-1-2-3|")
            conn = a.multicast(subject())
            x = conn.signal.map { $0 }
            y = conn.signal.map { $0 }
            conn.connect()
            late = timer(after: 250ms).flatMap(.merge) { _ in conn.signal }
            """
        let drawn = drawn(program)
        #expect(drawn["a"]?.subscriptions == ["^-----!"])
        #expect(drawn["x"]?.events == ["next@100 1", "next@300 2", "next@500 3", "completed@600"])
        #expect(drawn["y"]?.events == drawn["x"]?.events)
        #expect(drawn["late"]?.events == ["next@300 2", "next@500 3", "completed@600"])
        let live = try live(program)
        #expect(live["x"] == drawn["x"]?.events && live["late"] == drawn["late"]?.events, "\(live)")
    }

    @Test func theFollowingTerminalReplaysItsLatestAndTheLeadingDoesNot() throws {
        let program = """
            ch = channel()
            marbles("-a--b").subscribe(ch.leadingTerminal)
            marbles("--x").subscribe(ch.followingTerminal)
            lateModel = timer(after: 600ms).flatMap(.merge) { _ in ch.followingTerminal }
            lateView = timer(after: 600ms).flatMap(.merge) { _ in ch.leadingTerminal }
            """
        let drawn = drawn(program)
        #expect(drawn["lateModel"]?.events == ["next@600 b"])
        #expect(drawn["lateView"]?.events == [])
        #expect(drawn["ch"]?.sources.keys.sorted() == ["ch·followingTerminal", "ch·leadingTerminal"], "each terminal drawn in its channel")
        let live = try live(program)
        #expect(live["lateModel"] == ["next@600 b"] && live["lateView"] == nil, "\(live)")
    }

    @Test func aCreatedSignalsDisposableIsMarkedWhenTakeEndsIt() throws {
        let program = """
            s = createSignal { subscriber in
                subscriber.sendNext(1)
                after(1s) { subscriber.sendNext(2) }
                return disposable { }
            }
            first = s.take(1)
            """
        let drawn = drawn(program)
        #expect(drawn["first"]?.events == ["next@0 1", "completed@0"])
        #expect(drawn["s"]?.sources["s·disposable"] == ["(^!)"], "disposed at once, by take(1)")
        #expect(try live(program)["first"] == drawn["first"]?.events)
    }

    /// The same connection in a live session on a virtual clock: nothing before the connect
    /// at 200 ms, then the source once, its frames counted from there.
    @Test func aLiveSessionConnectsWhenTheLineSays() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        let router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
        let program = """
            a = marbles("-1-2|")
            conn = a.multicast(replaySubject(capacity: 1))
            x = conn.signal.map { $0 }
            after(200ms) { conn.connect() }
            """
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/pipelines", query: ["clock": "virtual"], body: Array(program.utf8))
        )
        #expect(created.status == 201)
        let id = try #require(TestRouter.json(created)["session"] as? String)
        let session = try #require(store.session(id))
        let advanced = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/sessions/\(id)/inputs/advance", body: Array("1000".utf8))
        )
        #expect(advanced.status == 202)
        session.settle()
        let events = session.recordedEvents()
        let values = events.filter { $0.stream == "x" && $0.kind == .next }.map { "\($0.valueJSON ?? "")@\($0.t)" }
        #expect(values == ["1@300.0", "2@500.0"])
        #expect(events.filter { $0.stream == "a" && $0.kind == .subscribed }.map(\.t) == [200], "the source, once, at the connect")
        store.closeAll(reason: "draining")
    }
}
