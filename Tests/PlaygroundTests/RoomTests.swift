import Foundation
import Locking
import Logging
import MicroHTTP
import ReactiveTesting
import Scenarios
import Testing

@testable import PlaygroundServer

/// Rooms' parts that need no server: keys and codes, a question's answer found by replaying a
/// journal, and the class's counts kept as answers come and change.
@Suite("Rooms")
struct RoomTests {
    @Test func codesAreReadAloudAndTypedBack() {
        var seen = Set<String>()
        for _ in 0..<1_000 {
            let code = RoomKeys.makeCode()
            #expect(code.count == 7 && code.allSatisfy(RoomKeys.codeAlphabet.contains))
            seen.insert(code)
        }
        #expect(seen.count > 990, "codes are drawn at random")
        for lookAlike in ["0", "O", "1", "I", "L", "5", "S", "8", "B", "2", "Z", "U", "V"] {
            #expect(!RoomKeys.codeAlphabet.contains(Character(lookAlike)), "\(lookAlike) has a look-alike")
        }
        #expect(RoomKeys.code(from: "m47-33mk") == "M4733MK")
        #expect(RoomKeys.code(from: " m4 733mk ") == "M4733MK")
        #expect(RoomKeys.code(from: "M4733M") == nil)
        #expect(RoomKeys.code(from: "M4733MO") == nil)
    }

    @Test func keysAreRandomAndComparedWhole() {
        let key = RoomKeys.make()
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit))
        #expect(key != RoomKeys.make())
        #expect(RoomKeys.matches(key, key))
        #expect(!RoomKeys.matches(String(key.dropLast()) + (key.last == "0" ? "1" : "0"), key))
        #expect(!RoomKeys.matches(String(key.dropLast()), key))
        #expect(!RoomKeys.matches("", key))
    }

    @Test func aRequestShowsItsKeyByHeaderOrByItsRolesCookie() {
        func request(_ headers: [(String, String)]) -> HTTPRequest {
            HTTPRequest(method: .get, rawPath: "/api/rooms/x/events", headerFields: headers.map { (name: $0.0, value: $0.1) })
        }
        #expect(RoomKeys.key(of: request([("Authorization", "Bearer abc")]), as: nil) == "abc")
        #expect(RoomKeys.key(of: request([("Authorization", "Basic abc")]), as: nil) == nil)
        let both = request([("Cookie", "a=b; room_student=1.s; room_teacher=t")])
        #expect(RoomKeys.key(of: both, as: .student) == "1.s")
        #expect(RoomKeys.key(of: both, as: .teacher) == "t")
        #expect(RoomKeys.key(of: both, as: nil) == "t", "the teacher's first")
        #expect(RoomKeys.key(of: request([("Cookie", "room_teachers=t")]), as: nil) == nil)
    }

    /// The question's answer, found by replaying the journal, is what the live session then sends.
    @Test func aQuestionsAnswerIsWhatTheProgramSendsNext() throws {
        let text = "a = marbles(\"-a--b-c|\")\nout = a.skip(1)"
        let definition = try ProgramSession.definition(from: text).get().definition
        let question = RoomQuestion.ask(
            id: 1,
            stream: "out",
            frame: 100,
            frames: 8,
            in: definition,
            settings: ScenarioSettings(),
            steps: [.advance(milliseconds: 100)],
            from: 100,
            letters: ["a": .string("a"), "b": .string("b"), "c": .string("c")]
        )
        #expect(question.truth == "---b-c|")
        #expect(try question.read("---b-c|").get() == question.truthEvents)
        #expect(try question.read("--- b - c |").get() == question.truthEvents, "spaces are ignored, as in lessons")
        #expect((try? question.read("---b-c-|").get()) != question.truthEvents)
        #expect(throws: RoomQuestion.AnswerError.self) { try question.read("---------a").get() }
        #expect(throws: RoomQuestion.AnswerError.self) { try question.read("-(a").get() }
    }

    /// A live virtual-clock session and its journal replayed make the same events at the same
    /// times: the search scenario's throttle, service calls and cancellations, with moves of the
    /// clock run together (Play's small steps are one step in the journal).
    @Test func aJournalReplayedMakesTheLiveSessionsEvents() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var limits = SessionStore.Limits()
        limits.session.inputsPerSecond = 10_000
        limits.session.inputBurst = 10_000
        let store = SessionStore(settings: ScenarioSettings(), limits: limits, threads: 1, logger: logger)
        let definition = SessionDefinition.scenario(try #require(Catalogue.scenario(withID: "search")))
        let session = try store.create(definition, clientAddress: "test", clock: .virtual, journalBytes: 64 * 1024)
        var random = SeededGenerator(seed: 62)
        for index in 0..<60 {
            if Bool.random(using: &random) {
                _ = session.send(.next(.text(String(repeating: "s", count: 3 + index % 4) + "\(index)")), to: "query")
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                _ = session.advance(by: Double(Int.random(in: 0...400, using: &random)))
            }
        }
        let done = DispatchSemaphore(value: 0)
        _ = session.scheduler.schedule { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let journal = try #require(session.journal)
        #expect(journal.steps.count < 100, "the clock's moves in a row are one step: \(journal.steps.count)")
        let live = session.recordedEvents().filter { !$0.stream.hasPrefix("input:") }
            .map { "\($0.stream) \($0.kind) \($0.valueJSON ?? "") \($0.t)" }
        let replayed = Lock<[String]>([])
        SessionReplay.run(definition, settings: ScenarioSettings(), steps: journal.steps, beyond: 0) { stream, report, at in
            let t = Double((at / .microseconds(100))).rounded() / 10
            let line: String
            switch report {
            case .subscribed: line = "\(stream) subscribed  \(t)"
            case .disposed: line = "\(stream) disposed  \(t)"
            case .event(let event, _): line = "\(stream) \(event.eventKind) \(EventJSON.valueJSON(of: event) ?? "") \(t)"
            }
            replayed.withLock { $0.append(line) }
        }
        #expect(live.count > 50)
        // The replay stops its instance at the end: the disposals after are its own.
        let lines = replayed.withLock { $0 }
        #expect(Array(lines.prefix(live.count)) == live)
        #expect(lines.dropFirst(live.count).allSatisfy { $0.contains(" disposed ") })
        store.delete(session.id)
    }

    /// Play's moves of the clock are one step in the journal; replayed, that step runs in as many
    /// step budgets as it needs: 30 s of a 1 ms ticker is 30,000 ticks, past one budget of 20,000.
    @Test func aJournalStepOfManyMovesIsReplayedWhole() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var settings = ScenarioSettings()
        settings.tickInterval = .milliseconds(1)
        var limits = SessionStore.Limits()
        limits.session.inputsPerSecond = 10_000
        limits.session.inputBurst = 10_000
        let store = SessionStore(settings: settings, limits: limits, threads: 1, logger: logger)
        let definition = SessionDefinition.scenario(try #require(Catalogue.scenario(withID: "ticker")))
        let session = try store.create(definition, clientAddress: "test", clock: .virtual, journalBytes: 64 * 1024)
        for _ in 0..<300 { _ = session.advance(by: 100) }
        let done = DispatchSemaphore(value: 0)
        _ = session.scheduler.schedule { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let journal = try #require(session.journal)
        #expect(journal.steps.count == 1 && journal.milliseconds == 30_000)
        let made = session.keptEvents.made
        let replayed = Lock(0)
        SessionReplay.run(definition, settings: settings, steps: journal.steps, beyond: 0) { _, report, _ in
            switch report {
            case .event, .subscribed: replayed.withLock { $0 += 1 }
            case .disposed: break  // the replay's own stop, at its end
            }
        }
        #expect(made > 90_000, "three streams tick 30,000 times")
        #expect(replayed.withLock { $0 } == made)
        store.delete(session.id)
    }

    /// Answers added, changed and taken back in a random order: the counts kept as they come are
    /// the counts of the answers standing at the end.
    @Test func theClassTallyAgreesWithARecount() {
        let truth = LessonRuns.read("-a-b|", letters: [:])!
        let choices = ["-a-b|", "-a-b", "a--b|", "-a-b|", "---", "--a|", "-(ab)|"]
        var random = SeededGenerator(seed: 61)
        var tally = ClassTally(frames: 8)
        var standing: [Int: String] = [:]
        for _ in 0..<2_000 {
            let student = Int.random(in: 0..<40, using: &random)
            if Int.random(in: 0..<10, using: &random) == 0 {
                tally.remove(student)
                standing[student] = nil
                continue
            }
            let marbles = choices.randomElement(using: &random)!
            let events = LessonRuns.read(marbles, letters: [:])!
            tally.set(student, marbles: marbles, events: events, truth: truth)
            standing[student] = marbles
        }
        #expect(tally.answered == standing.count)
        let reads = standing.values.map { LessonRuns.read($0, letters: [:])! }
        #expect(tally.right == reads.filter { $0 == truth }.count)
        var heat = Array(repeating: 0, count: 8)
        for read in reads { for frame in Set(read.map(\.frame)) { heat[frame] += 1 } }
        #expect(tally.heat == heat)
        #expect(tally.groups.values.map(\.count).reduce(0, +) == standing.count)
        #expect(tally.groups.count == Set(reads.map { $0.map { "\($0.frame)\($0.kind)\($0.value ?? "")" } }).count)
        let wrong = tally.wrongGroups(limit: 20)
        #expect(wrong.allSatisfy { !$0.right } && wrong.map(\.count) == wrong.map(\.count).sorted(by: >))
    }
}
