import Dispatch
import Foundation
import Locking
import Logging
import MicroHTTP
import Reactive
import Scenarios

/// Every live session: creation with its caps, lookup by id, deletion, and expiry of idle ones.
///
/// Fair shares: what program sessions share across the server — their number, the bytes of
/// events they keep (``ByteLedger``), the heap, and the programs' threads (``FairWorkQueue``) —
/// no client ("client": the address the rate limits use) takes from the others. A client holds
/// at most a quarter of the program sessions; a newcomer's kept events are made room for by
/// the largest holder shedding its oldest; over the heap limit only the clients whose programs
/// sent the most lately are refused. Scenario sessions are never refused because of programs:
/// programs may fill only their own part of `maxSessions`.
///
/// Sessions are spread over small pools of `RunLoopScheduler` threads, and a session stays on the
/// thread it was given: the built-in scenarios' pool (one thread per core by default), and a pool
/// of its own for users' programs (one thread by default). A runaway program costs its thread
/// until its step budget halts it; with programs on threads of their own, a flood of them can
/// slow other programs but never the scenarios' sessions, nor take more cores than its pool has.
final class SessionStore: Sendable {
    /// The store's limits, from the command line.
    struct Limits: Sendable {
        /// Live sessions at most (503 `too_many_sessions` beyond).
        var maxSessions = 1_000
        /// Live sessions per client address at most (429 `rate_limited` beyond): room for a class of
        /// thirty behind one school address, each with a program and a scenario.
        var maxSessionsPerClient = 100
        /// Live program sessions at most, within ``maxSessions`` (the rest is the scenarios'); a
        /// client may hold a quarter of them (429 `share_used` beyond).
        var maxProgramSessions = 250
        /// Pieces of program work (checks, runs, drawings) one client may have waiting for the
        /// programs' threads (429 `share_used` beyond).
        var programWorkPerClient = 32
        /// A session nobody watches and nobody sends to for this long is deleted.
        var idleTimeout: Duration = .seconds(600)
        /// Per-session limits.
        var session = SessionLimits()
        /// Bytes of events all program sessions keep together (503 `server_busy` for a new one
        /// when there is no room for one more session's worth).
        var programEventBytes = 64 * 1024 * 1024
        /// Heap bytes in use beyond which the program session that sent the most bytes lately is
        /// halted, and new program sessions are refused (503 `server_busy`), until it is below.
        var maxHeapBytes = 192 * 1024 * 1024
    }

    /// How often the heap is measured against ``Limits/maxHeapBytes``.
    static let memoryCheckInterval: Duration = .milliseconds(200)
    /// The least a program must have sent lately to be halted for memory: one that sends little
    /// holds little, and halting it would free nothing.
    static let haltFloorBytes = 1024.0 * 1024

    /// Why a session was not created.
    enum CreationError: Error, Equatable {
        case tooManySessions
        /// The program sessions fill their part of ``Limits/maxSessions``.
        case tooManyPrograms
        case tooManyForClient
        /// The server is draining: it takes no new sessions (`--drain-seconds`).
        case draining
        /// The server's heap is over ``Limits/maxHeapBytes`` and no client's programs explain it.
        case eventMemoryFull
        /// The client holds its share of what program sessions share.
        case shareUsed(Share)
    }

    /// What program sessions share, of which a client has taken its part.
    enum Share: Equatable {
        /// A quarter of the program sessions: `limit` of them for one client.
        case programSessions(limit: Int)
        /// Its fair share of the bytes program sessions keep of their events, all of them full.
        case eventBytes(held: Int, share: Int)
        /// The heap is over its limit, and this client's programs sent the most lately.
        case memory
    }

    private struct State {
        var sessions: [String: Session] = [:]
        var perClient: [String: Int] = [:]
        /// The ids of the program sessions among `sessions`, and their number per client.
        var programs: Set<String> = []
        var programsPerClient: [String: Int] = [:]
        /// Clients whose programs sent the most lately, when the heap was last over its limit.
        var heavyClients: Set<String> = []
        /// Places taken by sessions being built (counted against `maxSessions`).
        var reserved = 0
        var nextScheduler = 0
        var nextProgramScheduler = 0
        var isDraining = false
        /// The heap was over ``Limits/maxHeapBytes`` when last measured.
        var isMemoryShort = false
    }

    /// The thread pool a session runs on.
    enum Pool {
        /// The built-in scenarios'.
        case scenarios
        /// Users' programs'.
        case programs
    }

    private let state = Lock(State())
    private let schedulers: [RunLoopScheduler]
    private let programSchedulers: [RunLoopScheduler]
    /// The scenarios' settings every session runs with (`--throttle-ms`…).
    let settings: ScenarioSettings
    let limits: Limits
    /// What the program sessions keep of their events, together.
    let programEventBytes: ByteLedger
    /// Work waiting for the programs' threads, each client in turn.
    let programWork: FairWorkQueue
    private let shedding = DispatchQueue(label: "playground.event-shed")
    private let logger: Logger
    private let sweeper = DispatchQueue(label: "playground.session-expiry")
    private let memoryWatch = DispatchQueue(label: "playground.memory-watch")
    /// Called each time a program is halted because the heap is over its limit (a metric).
    private let onMemoryHalt: @Sendable () -> Void
    /// This instance's name (`--instance-id`), the prefix of its sessions' ids; `nil` for none.
    let instanceID: String?

    init(
        settings: ScenarioSettings,
        limits: Limits,
        threads: Int,
        programThreads: Int = 1,
        instanceID: String? = nil,
        logger: Logger,
        onMemoryHalt: @escaping @Sendable () -> Void = {}
    ) {
        self.settings = settings
        self.limits = limits
        // The ledger asks a client's sessions to shed from a queue of its own: it is called with
        // a session's lock held, and shedding takes the store's lock and other sessions'.
        let store = WeakStore()
        let shedding = shedding
        programEventBytes = ByteLedger(limit: limits.programEventBytes) { client in
            shedding.async { store.value?.shedKeptEvents(of: client) }
        }
        programWork = FairWorkQueue(perClient: limits.programWorkPerClient)
        self.instanceID = instanceID
        self.logger = logger
        schedulers = (0..<max(1, threads)).map { RunLoopScheduler(name: "playground.session-\($0)") }
        programSchedulers = (0..<max(1, programThreads)).map { RunLoopScheduler(name: "playground.program-\($0)") }
        // Programs may take every core, but below the scenarios and the polling thread: a flood of
        // runaway programs must not slow a scenario's session.
        for scheduler in programSchedulers { _ = scheduler.schedule { ThreadPriority.lowerCurrentThreadForPrograms() } }
        self.onMemoryHalt = onMemoryHalt
        store.set(self)
        scheduleSweep()
        scheduleMemoryCheck()
    }

    /// Creates a session running `pipeline` for the client at `clientAddress`, on a thread of
    /// `pool`; the client may hold `clientLimit` sessions (default `--max-sessions-per-client`).
    func create(
        _ definition: SessionDefinition,
        clientAddress: String,
        clock: Session.Clock = .real,
        pool: Pool = .scenarios,
        journalBytes: Int? = nil,
        clientLimit: Int? = nil
    ) throws(CreationError) -> Session {
        let id = SessionID.make(on: instanceID)
        // The caps are checked and the place taken in one critical section: the session is built
        // outside the lock, so it counts as reserved until it is stored (two polling threads once
        // both passed the check before either stored its session).
        let result = state.withLock { state -> Result<RunLoopScheduler, CreationError> in
            guard !state.isDraining else { return .failure(.draining) }
            if pool == .programs, let refusal = programRefusal(for: clientAddress, in: state) { return .failure(refusal) }
            guard state.sessions.count + state.reserved < limits.maxSessions else { return .failure(.tooManySessions) }
            guard state.perClient[clientAddress, default: 0] < clientLimit ?? limits.maxSessionsPerClient else {
                return .failure(.tooManyForClient)
            }
            state.perClient[clientAddress, default: 0] += 1
            if pool == .programs {
                state.programs.insert(id)
                state.programsPerClient[clientAddress, default: 0] += 1
            }
            state.reserved += 1
            switch pool {
            case .scenarios:
                defer { state.nextScheduler = (state.nextScheduler + 1) % schedulers.count }
                return .success(schedulers[state.nextScheduler])
            case .programs:
                defer { state.nextProgramScheduler = (state.nextProgramScheduler + 1) % programSchedulers.count }
                return .success(programSchedulers[state.nextProgramScheduler])
            }
        }
        let scheduler = try result.get()
        var sessionLimits = limits.session
        if pool == .programs { sessionLimits.sharedEventBytes = LedgerAccount(ledger: programEventBytes, client: clientAddress) }
        sessionLimits.journalBytes = journalBytes
        let session = Session(
            id: id,
            definition: definition,
            clientAddress: clientAddress,
            scheduler: scheduler,
            clock: clock,
            settings: settings,
            limits: sessionLimits
        )
        state.withLock { state in
            state.reserved -= 1
            state.sessions[id] = session
        }
        logger.debug("session created", metadata: ["session": "\(id.prefix(8))…", "scenario": "\(definition.description.id)"])
        return session
    }

    /// Why `client` may not open one more program session, if it may not: the program sessions'
    /// own part of the sessions, the client's quarter of it, the heap, and the client's share of
    /// the bytes kept.
    private func programRefusal(for client: String, in state: State) -> CreationError? {
        guard state.programs.count < limits.maxProgramSessions else { return .tooManyPrograms }
        let perClient = max(1, limits.maxProgramSessions / 4)
        guard state.programsPerClient[client, default: 0] < perClient else { return .shareUsed(.programSessions(limit: perClient)) }
        if state.isMemoryShort {
            // Refuse the clients that explain the shortage; nobody's programs explain it: everyone.
            guard !state.heavyClients.isEmpty else { return .eventMemoryFull }
            if state.heavyClients.contains(client) { return .shareUsed(.memory) }
        }
        guard programEventBytes.admits(client, reserving: limits.session.eventBytes) else {
            return .shareUsed(.eventBytes(held: programEventBytes.held(by: client), share: programEventBytes.share(of: client)))
        }
        return nil
    }

    /// Runs `work` for `client` on one of the programs' threads, in its turn among the clients'
    /// (``FairWorkQueue``), in a place taken with `programWork.reserve(for:)`: what a program
    /// costs before it has a session (checking, building, drawing) is kept off the polling thread
    /// and away from the scenarios'.
    func onProgramThread(reservedFor client: String, _ work: @escaping @Sendable () -> Void) {
        programWork.enqueue(work, for: client)
        let scheduler = state.withLock { state in
            defer { state.nextProgramScheduler = (state.nextProgramScheduler + 1) % programSchedulers.count }
            return programSchedulers[state.nextProgramScheduler]
        }
        // One turn per piece queued: each turn runs whichever piece the round robin gives.
        _ = scheduler.schedule { [programWork] in programWork.takeNext()?() }
    }

    /// Runs `work` on one of the programs' threads if `client` has room for it; `false` if not.
    @discardableResult
    func onProgramThread(for client: String, _ work: @escaping @Sendable () -> Void) -> Bool {
        guard programWork.reserve(for: client) else { return false }
        onProgramThread(reservedFor: client, work)
        return true
    }

    /// Makes `client`'s program sessions let go of their oldest events while it holds more than
    /// its share of the full ledger (asked by ``ByteLedger``; on the shedding queue).
    private func shedKeptEvents(of client: String) {
        let theirs = state.withLock { state in
            state.programs.compactMap { state.sessions[$0] }.filter { $0.clientAddress == client }
        }
        for session in theirs { session.forgetOldestEvents() }
        programEventBytes.finishedShedding(client)
    }

    /// The session with `id`, or `nil`.
    func session(_ id: String) -> Session? {
        state.withLock { $0.sessions[id] }
    }

    /// Deletes the session with `id`; `false` if there was none.
    @discardableResult
    func delete(_ id: String) -> Bool {
        let removed = state.withLock { state -> Session? in
            guard let session = state.sessions.removeValue(forKey: id) else { return nil }
            state.perClient[session.clientAddress, default: 1] -= 1
            if state.perClient[session.clientAddress] == 0 { state.perClient[session.clientAddress] = nil }
            if state.programs.remove(id) != nil {
                state.programsPerClient[session.clientAddress, default: 1] -= 1
                if state.programsPerClient[session.clientAddress] == 0 { state.programsPerClient[session.clientAddress] = nil }
            }
            state.sessions.shrinkIfSparse()
            state.perClient.shrinkIfSparse()
            return session
        }
        guard let removed else { return false }
        removed.close()
        HeapTrimmer.shared.noteRelease()
        return true
    }

    /// The number of live sessions.
    var count: Int { state.withLock { $0.sessions.count } }

    /// Whether the store has stopped taking new sessions (``startDraining()``).
    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Takes no new sessions from now on; the live ones go on until ``closeAll(reason:)``.
    func startDraining() {
        state.withLock { $0.isDraining = true }
    }

    /// Ends every session (at shutdown), each watcher's stream with a final `end` event saying
    /// `reason`.
    func closeAll(reason: String) {
        let all = state.withLock { state -> [Session] in
            defer { state = State(isDraining: true) }
            return Array(state.sessions.values)
        }
        for session in all { session.close(endingWith: reason) }
        HeapTrimmer.shared.noteRelease()
    }

    /// Measures the heap now and then; over ``Limits/maxHeapBytes``, refuses new program sessions
    /// and halts the program session that sent the most bytes lately (one per measure, so that
    /// what it held is freed before another is judged). Whatever a program holds — replayed
    /// values, a `delay`'s or a `buffer`'s, a `zip`'s queue — it had to send, so the one that
    /// sent the most is the one to stop.
    private func scheduleMemoryCheck() {
        let interval = Double(Self.memoryCheckInterval / .milliseconds(1)) / 1_000
        memoryWatch.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self else { return }
            self.checkMemory()
            self.scheduleMemoryCheck()
        }
    }

    private func checkMemory() {
        // Resident memory first: a kernel counter. Only beyond the limit is glibc asked how much of
        // it is in use, which walks the heap under the allocator's lock and stalls every thread
        // that allocates meanwhile (ProcessMemory.heapBytesInUse).
        let resident = ProcessMemory.residentBytes() ?? .max
        guard resident > limits.maxHeapBytes else {
            state.withLock { $0.isMemoryShort = false }
            return
        }
        let used = ProcessMemory.heapBytesInUse()
        let isShort = used > limits.maxHeapBytes
        // Resident but not in use: freed memory the heap keeps. Have it trimmed.
        if !isShort { HeapTrimmer.shared.requestTrim() }
        let programs = state.withLock { state -> [Session] in
            state.isMemoryShort = isShort
            if !isShort { state.heavyClients = [] }
            return isShort ? state.programs.compactMap { state.sessions[$0] } : []
        }
        let sent = programs.map { ($0, $0.recentBytesSent) }
        let heavy = Self.heavyClients(sent.map { ($0.0.clientAddress, $0.1) })
        state.withLock { $0.heavyClients = heavy }
        let heaviest = sent.max { $0.1 < $1.1 }
        guard let (session, sent) = heaviest, sent >= Self.haltFloorBytes else { return }
        session.haltForMemory()
        HeapTrimmer.shared.noteRelease()
        onMemoryHalt()
        logger.warning(
            "program halted: the heap is over its limit",
            metadata: [
                "session": "\(session.id.prefix(8))…", "heapBytes": "\(used)", "limit": "\(limits.maxHeapBytes)",
                "recentBytesSent": "\(Int(sent))",
            ]
        )
    }

    /// The clients whose programs sent more than the average client's lately (at least
    /// ``haltFloorBytes``): those a short heap refuses new programs to.
    static func heavyClients(_ sent: [(client: String, bytes: Double)]) -> Set<String> {
        let byClient = Dictionary(sent.map { ($0.client, $0.bytes) }, uniquingKeysWith: +)
        guard !byClient.isEmpty else { return [] }
        let average = byClient.values.reduce(0, +) / Double(byClient.count)
        return Set(byClient.filter { $0.value >= average && $0.value >= haltFloorBytes }.keys)
    }

    private func scheduleSweep() {
        let interval = min(max(limits.idleTimeout / 10, .milliseconds(50)), .seconds(30))
        sweeper.asyncAfter(deadline: .now() + Double(interval / .milliseconds(1)) / 1_000) { [weak self] in
            guard let self else { return }
            let now = ContinuousClock.now
            let idle = self.state.withLock { state in
                state.sessions.values.filter { $0.isIdle(now: now, timeout: self.limits.idleTimeout) }.map(\.id)
            }
            for id in idle where self.delete(id) {
                self.logger.debug("session expired", metadata: ["session": "\(id.prefix(8))…"])
            }
            self.scheduleSweep()
        }
    }
}

/// The store, held weakly by what it creates before it exists (its ledger's shedding).
private final class WeakStore: Sendable {
    private struct Reference { weak var store: SessionStore? }
    private let reference = Lock(Reference())

    var value: SessionStore? { reference.withLock { $0.store } }

    func set(_ store: SessionStore) { reference.withLock { $0.store = store } }
}
