import Foundation
import Logging
import MicroHTTP
import Pipelines
import Reactive
import Scenarios
import Testing

@testable import PlaygroundServer

/// The Inside view tells the truth about the lanes: for every scenario, every example program and
/// every lesson's program, run on a virtual clock, each subscription a lane draws (its `^`) has its
/// object — the subscriber labelled with its stream and id, made at the same instant — and each
/// lane's end (its `!`) is that object's disposal, at the same instant. And what is alive at the
/// end is exactly what the program holds on purpose (listed below): nothing leaks.
@Suite("Inside: every ^ has its subscriber and every ! its disposal")
struct InsideTruthTests {
    let store: SessionStore
    let router: Router

    init() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        store = SessionStore(settings: ScenarioSettings(), limits: .init(), threads: 1, logger: logger)
        router = API(staticFiles: try StaticFiles(root: APITests.publicFolder), sessions: store).router()
    }

    /// Every program the playground ships: its examples and its lessons' programs.
    static var programs: [(name: String, text: String)] {
        let lessons = URL(fileURLWithPath: APITests.publicFolder).appendingPathComponent("lessons")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: lessons.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        let lessonPrograms = files.compactMap { name -> (String, String)? in
            guard let data = try? Data(contentsOf: lessons.appendingPathComponent(name)),
                let lesson = try? JSONDecoder().decode(Lesson.self, from: data),
                let program = lesson.program
            else { return nil }  // a lesson on a scenario: the scenarios are checked apart
            return ("lesson \(name)", Lesson.program(lesson.inputs ?? [], program))
        }
        return Example.all.map { ("example \($0.id)", $0.program) } + lessonPrograms
    }

    /// Runs the session `id` for `milliseconds` of virtual time, then checks its lanes against its
    /// objects; answers how many subscriptions it checked.
    @discardableResult
    func check(_ id: String, for milliseconds: Int, _ name: String) throws -> Int {
        let advance = HTTPRequest(method: .post, rawPath: "/api/sessions/\(id)/inputs/advance", body: Array("\(milliseconds)".utf8))
        #expect(TestRouter.respond(router, to: advance).status == 202, "\(name)")
        let session = try #require(store.session(id))
        session.settle()
        let graph = InsideGraph(session.inside, at: OutsideNumbers.maximumInstant, since: 0)
        #expect(graph.stoppedAt == nil, "\(name): the inspection log filled")
        var subscribers: [String: InsideGraph.Node] = [:]
        for node in graph.nodes where node.probe != true {
            guard let stream = node.stream, let subscription = node.subscription else { continue }
            #expect(subscribers.updateValue(node, forKey: "\(stream)#\(subscription)") == nil, "\(name): two objects for \(stream) #\(subscription)")
        }
        var checked = 0
        for event in session.recordedEvents() {
            guard let subscription = event.subscription, event.kind == .subscribed || event.kind == .disposed else { continue }
            let key = "\(event.stream)#\(subscription)"
            guard let node = subscribers[key] else {
                Issue.record("\(name): no object for \(event.stream)'s subscription \(subscription) (its ^ at \(event.t) ms)")
                continue
            }
            if event.kind == .subscribed {
                #expect(node.created == event.t, "\(name): \(key)'s ^ at \(event.t) ms, its subscriber made at \(node.created)")
                checked += 1
            } else {
                let disposed = node.disposed.map { "\($0) ms" } ?? "never"
                #expect(node.disposed == event.t, "\(name): \(key)'s ! at \(event.t) ms, its subscriber disposed \(disposed)")
            }
        }
        return checked
    }

    @Test(arguments: Catalogue.scenarios.map { $0.description.id })
    func everyScenariosLanesAreItsSubscribers(_ scenario: String) throws {
        defer { store.closeAll(reason: "draining") }
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/scenarios/\(scenario)/sessions", query: ["clock": "virtual"])
        )
        let id = try #require(TestRouter.json(created)["session"] as? String)
        #expect(try check(id, for: 5_000, scenario) > 0)
        // A scenario's inputs never complete: its end is the session's.
        let held = try alive(id)
        #expect(held == Self.heldAfterStopping[scenario, default: [:]], "\(scenario), stopped: \(held)")
    }

    @Test(arguments: programs.map(\.name))
    func everyShippedProgramsLanesAreItsSubscribers(_ name: String) throws {
        defer { store.closeAll(reason: "draining") }
        let text = try #require(Self.programs.first { $0.name == name }).text
        let created = TestRouter.respond(
            router,
            to: HTTPRequest(method: .post, rawPath: "/api/pipelines", query: ["clock": "virtual"], body: Array(text.utf8))
        )
        #expect(created.status == 201, "\(name): \(TestRouter.json(created))")
        let id = try #require(TestRouter.json(created)["session"] as? String)
        #expect(try check(id, for: 10_000, name) > 0, "\(name): no subscription checked")
        if name.hasPrefix("lesson") {
            // A lesson's inputs complete: at the end of its run only what it holds is alive.
            #expect(try alive(id, stopping: false) == Self.heldAtTheEnd[name, default: [.compoundDisposable: 1]], "\(name), at its end")
        }
        let held = try alive(id)
        #expect(held == Self.heldAfterStopping[name, default: [:]], "\(name), stopped: \(held)")
    }

    /// What a finished lesson's run holds on purpose besides the session's own compound
    /// disposable of its subscriptions (every lesson not listed holds that alone): lesson 11's
    /// connection and its serial disposable of the one source subscription, which RAC keeps after
    /// the source completes; lesson 12's connection, whose autoconnect disposed that subscription;
    /// lesson 14's command — its three replay subjects of state and two subjects of what it
    /// sends (execution signals, errors), each with its compound disposable of feeds, and the
    /// serial disposable of its `enabled` subscription.
    static let heldAtTheEnd: [String: [InspectedKind: Int]] = [
        "lesson 11-replay.json": [.compoundDisposable: 1, .serialDisposable: 1, .multicastConnection: 1],
        "lesson 12-sharing.json": [.compoundDisposable: 1, .multicastConnection: 1],
        "lesson 14-commands.json": [.compoundDisposable: 6, .replaySubject: 3, .subject: 2, .serialDisposable: 1],
    ]

    /// What is alive once a session has stopped: nothing that can be disposed — every
    /// subscription, disposable and subject is disposed or freed — but the multicast connections
    /// and channel terminals the program made, which RAC never disposes (they are not
    /// disposables); the store frees them with the session.
    static let heldAfterStopping: [String: [InspectedKind: Int]] = [
        "search": [.multicastConnection: 1],
        "multicast": [.multicastConnection: 1],
        "schedulers": [.multicastConnection: 1],
        "binding": [.channelTerminal: 8],
        "lesson 11-replay.json": [.multicastConnection: 1],
        "lesson 12-sharing.json": [.multicastConnection: 1],
    ]

    /// The kinds of the objects of session `id` neither disposed nor freed, counted: at the end
    /// of its run, or (`stopping`) once the session has stopped.
    func alive(_ id: String, stopping: Bool = true) throws -> [InspectedKind: Int] {
        let session = try #require(store.session(id))
        if stopping {
            session.close()
            session.settle()
        }
        let graph = InsideGraph(session.inside, at: OutsideNumbers.maximumInstant, since: 0)
        return graph.nodes.filter { $0.disposed == nil && $0.released == nil }.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 }
    }
}
