import Locking
import Logging
import MicroHTTP
import Scenarios
import Testing

@testable import PlaygroundServer

/// What program sessions share across the server, shared fairly between clients: the bytes of
/// events they keep, their number, the heap, and the programs' threads.
@Suite("Fair shares")
struct FairShareTests {
    /// A newcomer is never refused for bytes the largest holder can give: the holder is asked to
    /// shed down to its share, and only a client holding its share of a full ledger is refused.
    @Test func aNewcomerTakesRoomFromTheLargestHolder() {
        let asked = Lock<[String]>([])
        let ledger = ByteLedger(limit: 1_000) { client in asked.withLock { $0.append(client) } }
        ledger.add(1_000, for: "hog")
        #expect(!ledger.mustShed("hog"), "alone, its share is the whole")
        #expect(!ledger.admits("hog", reserving: 100), "the hog holds its share of a full ledger")
        #expect(ledger.admits("newcomer", reserving: 100))

        ledger.add(100, for: "newcomer")
        #expect(asked.withLock { $0 } == ["hog"])
        #expect(ledger.share(of: "hog") == 500)
        #expect(ledger.mustShed("hog"))
        #expect(!ledger.mustShed("newcomer"))
        ledger.add(50, for: "newcomer")
        #expect(asked.withLock { $0 } == ["hog"], "asked once until it has shed")

        ledger.add(-600, for: "hog")
        ledger.finishedShedding("hog")
        #expect(ledger.total == 550)
        #expect(!ledger.mustShed("hog"))
        #expect(ledger.held(by: "hog") == 400)
    }

    /// Two event logs of two clients on one ledger: the first fills it alone, the second's events
    /// make the first forget its oldest when asked, down to its share.
    @Test func eventLogsShedTheirOldestWhenTheirClientIsOverItsShare() {
        let asked = Lock<[String]>([])
        let ledger = ByteLedger(limit: 64 * 1_024) { client in asked.withLock { $0.append(client) } }
        func log(_ client: String) -> EventLog {
            var limits = SessionLimits()
            limits.sharedEventBytes = LedgerAccount(ledger: ledger, client: client)
            return EventLog(stateStreams: [], limits: limits)
        }
        func entry(_ log: inout EventLog) -> EventLog.Entry {
            let seq = log.takeSeq()
            let event = RecordedEvent(
                seq: seq,
                stream: "x",
                kind: .next,
                valueJSON: String(repeating: "v", count: 1_000),
                t: 0,
                causes: [],
                subscription: nil,
                thread: "session"
            )
            return EventLog.Entry(event: event, frame: ServerSentEvent(data: event.valueJSON!, event: "x", id: String(seq)))
        }
        var hog = log("hog")
        for _ in 0..<100 { hog.append(entry(&hog)) }  // ~230 KB: alone, it sheds its own down to the limit
        #expect(ledger.total <= ledger.limit && ledger.total > ledger.limit - 3_000)
        let kept = hog.kept.count
        var newcomer = log("newcomer")
        for _ in 0..<10 { newcomer.append(entry(&newcomer)) }
        #expect(asked.withLock { $0 } == ["hog"])
        #expect(newcomer.kept.count == 10, "the newcomer keeps all it made")
        hog.forgetOldest()
        ledger.finishedShedding("hog")
        #expect(hog.kept.count < kept)
        #expect(ledger.total <= ledger.limit, "the hog forgot what the newcomer needed, and no more")
        // The newcomer goes on: the hog is asked again each time, never past its share.
        for _ in 0..<100 { newcomer.append(entry(&newcomer)) }
        hog.forgetOldest()
        ledger.finishedShedding("hog")
        #expect(ledger.held(by: "hog") <= ledger.share(of: "hog") + 3_000)
        #expect(ledger.total <= ledger.limit)
    }

    func store(_ change: (inout SessionStore.Limits) -> Void) -> SessionStore {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var limits = SessionStore.Limits()
        change(&limits)
        return SessionStore(settings: ScenarioSettings(), limits: limits, threads: 1, logger: logger)
    }

    /// A client may hold a quarter of the program sessions; others still get theirs, and its
    /// scenario sessions are never refused because of its programs.
    @Test func aClientHoldsAQuarterOfTheProgramSessions() throws {
        let store = store { $0.maxProgramSessions = 8 }
        defer { store.closeAll(reason: "test") }
        for _ in 0..<2 { _ = try store.create(.scenario(Ticker.self), clientAddress: "a", pool: .programs) }
        #expect(throws: SessionStore.CreationError.shareUsed(.programSessions(limit: 2))) {
            try store.create(.scenario(Ticker.self), clientAddress: "a", pool: .programs)
        }
        _ = try store.create(.scenario(Ticker.self), clientAddress: "b", pool: .programs)
        _ = try store.create(.scenario(Ticker.self), clientAddress: "a")
    }

    /// Programs fill only their own part of the sessions: the scenarios keep the rest.
    @Test func programsNeverTakeTheScenariosPlaces() throws {
        let store = store {
            $0.maxSessions = 6
            $0.maxProgramSessions = 4
        }
        defer { store.closeAll(reason: "test") }
        for client in ["a", "b", "c", "d"] { _ = try store.create(.scenario(Ticker.self), clientAddress: client, pool: .programs) }
        #expect(throws: SessionStore.CreationError.tooManyPrograms) {
            try store.create(.scenario(Ticker.self), clientAddress: "e", pool: .programs)
        }
        for client in ["e", "f"] { _ = try store.create(.scenario(Ticker.self), clientAddress: client) }
    }

    /// A short heap refuses the clients whose programs sent more than the average client's, and
    /// only those (a client sending little is not to blame).
    @Test func theHeavyClientsAreThoseAboveTheAverage() {
        let mib = 1_048_576.0
        #expect(SessionStore.heavyClients([("a", 40 * mib), ("a", 30 * mib), ("b", 2 * mib), ("c", 0)]) == ["a"])
        #expect(SessionStore.heavyClients([("a", 10 * mib), ("b", 10 * mib)]) == ["a", "b"])
        #expect(SessionStore.heavyClients([("a", 1_000), ("b", 0)]).isEmpty, "below the floor nobody is to blame")
        #expect(SessionStore.heavyClients([]).isEmpty)
    }

    /// The programs' threads take each client's work in turn: a flood from one client waits
    /// behind its own, and each client has at most its share waiting.
    @Test func programWorkIsTakenFromEachClientInTurn() {
        let queue = FairWorkQueue(perClient: 3)
        let order = Lock<[String]>([])
        for name in ["a1", "a2", "a3"] {
            #expect(queue.reserve(for: "a"))
            queue.enqueue({ order.withLock { $0.append(name) } }, for: "a")
        }
        #expect(!queue.reserve(for: "a"), "a has its share waiting")
        #expect(queue.reserve(for: "b"))
        queue.enqueue({ order.withLock { $0.append("b1") } }, for: "b")
        while let work = queue.takeNext() { work() }
        #expect(order.withLock { $0 } == ["a1", "b1", "a2", "a3"])
        #expect(queue.inFlight(for: "a") == 0)
        #expect(queue.reserve(for: "a"), "done work gives its place back")
    }
}
