import Dispatch
import Locking
import Logging
import Scenarios

/// Every live room: creation within its limits, lookup by id and by join code, and the end of
/// idle ones (with their sessions). A room's id names its instance as a session's does
/// (``SessionID``), so a proxy sends its requests to the instance that holds it.
final class RoomStore: Sendable {
    /// Why a room was not made.
    enum CreationError: Error {
        case tooManyRooms(Int)
        case tooManyForClient(Int)
        /// The playground is three quarters full, and the address holds a room already.
        case shareUsed(Int)
        case session(SessionStore.CreationError)
    }

    struct State {
        var rooms: [String: Room] = [:]
        var codes: [String: String] = [:]
        var perClient: [String: Int] = [:]
    }

    let limits: RoomLimits
    private let sessions: SessionStore
    private let state = Lock(State())
    private let timers = DispatchQueue(label: "playground.rooms")
    private let logger: Logger

    init(limits: RoomLimits, sessions: SessionStore, logger: Logger) {
        self.limits = limits
        self.sessions = sessions
        self.logger = logger
        scheduleSweep()
    }

    /// A new room for the teacher at `address`, running `definition` on a virtual clock: the
    /// room, and the teacher's key (given once, never kept anywhere but the room).
    func create(
        _ source: RoomSource,
        title: String,
        course: RoomCourse?,
        address: String
    ) throws(CreationError) -> (room: Room, teacherKey: String) {
        let refusal = state.withLock { state -> CreationError? in
            guard state.rooms.count < limits.maxRooms else { return .tooManyRooms(limits.maxRooms) }
            let held = state.perClient[address, default: 0]
            guard held < limits.roomsPerClient else { return .tooManyForClient(limits.roomsPerClient) }
            if let share = Self.share(of: address, in: state, limits: limits), held >= share { return .shareUsed(share) }
            state.perClient[address, default: 0] += 1  // taken now: released below if the session is refused
            return nil
        }
        if let refusal { throw refusal }
        let session: Session
        do {
            session = try self.session(running: source, for: address)
        } catch {
            release(address)
            throw error
        }
        let key = RoomKeys.make()
        let room = state.withLock { state in
            var code = RoomKeys.makeCode(prefix: limits.codePrefix)
            while state.codes[code] != nil { code = RoomKeys.makeCode(prefix: limits.codePrefix) }
            let room = Room(
                id: SessionID.make(on: sessions.instanceID),
                code: code,
                title: title,
                source: source,
                course: course,
                session: session,
                teacherKey: key,
                teacherAddress: address,
                limits: limits,
                timers: timers
            )
            state.rooms[room.id] = room
            state.codes[code] = room.id
            return room
        }
        logger.info("room opened", metadata: ["room": "\(room.id.prefix(8))…", "from": "\(source.origin.kind)"])
        return (room, key)
    }

    /// The most rooms `address` may hold now: no bound until three quarters of `--max-rooms` are
    /// open; then the last quarter goes one room to an address that holds none — so that a few
    /// addresses opening rooms as fast as each may never take the last of them from everyone
    /// else's classes (it would take a quarter of `--max-rooms` addresses).
    static func share(of address: String, in state: State, limits: RoomLimits) -> Int? {
        guard state.rooms.count >= limits.maxRooms * 3 / 4 else { return nil }
        return 1
    }

    /// A new session for a room of the teacher at `address`, running `source` on a virtual clock
    /// and keeping its journal.
    func session(running source: RoomSource, for address: String) throws(CreationError) -> Session {
        do {
            return try sessions.create(
                source.definition,
                clientAddress: address,
                clock: .virtual,
                pool: source.definition.programSummary == nil ? .scenarios : .programs,
                journalBytes: limits.journalBytes
            )
        } catch {
            throw .session(error)
        }
    }

    /// Moves `room` to its course's lesson `index`, running `source`: a new session replaces the
    /// room's, which ends.
    func move(_ room: Room, toLesson index: Int, _ source: RoomSource) throws(CreationError) {
        let session = try session(running: source, for: room.teacherAddress)
        guard let old = room.move(toLesson: index, source, in: session) else {
            sessions.delete(session.id)
            return
        }
        sessions.delete(old.id)
    }

    private func release(_ address: String) {
        state.withLock { state in
            state.perClient[address, default: 1] -= 1
            if state.perClient[address] == 0 { state.perClient[address] = nil }
        }
    }

    /// The room with `id`, or `nil`.
    func room(_ id: String) -> Room? { state.withLock { $0.rooms[id] } }

    /// The room whose join code is `code`, or `nil`.
    func room(code: String) -> Room? { state.withLock { state in state.codes[code].flatMap { state.rooms[$0] } } }

    /// The number of live rooms, and of students in them (metrics).
    var counts: (rooms: Int, students: Int) {
        let rooms = state.withLock { Array($0.rooms.values) }
        return (rooms.count, rooms.reduce(0) { $0 + $1.studentCount })
    }

    /// This instance's name, the prefix of its rooms' ids.
    var instanceID: String? { sessions.instanceID }

    /// Ends the room `id` with `reason` and deletes its session; `false` if there was none.
    @discardableResult
    func end(_ id: String, reason: String) -> Bool {
        let room = state.withLock { state -> Room? in
            guard let room = state.rooms.removeValue(forKey: id) else { return nil }
            state.codes[room.code] = nil
            state.perClient[room.teacherAddress, default: 1] -= 1
            if state.perClient[room.teacherAddress] == 0 { state.perClient[room.teacherAddress] = nil }
            return room
        }
        guard let room else { return false }
        let session = room.end(reason: reason)
        sessions.delete(session.id)
        logger.info("room ended", metadata: ["room": "\(id.prefix(8))…", "reason": "\(reason)"])
        return true
    }

    /// Ends every room (the server drains), each stream with `event: end` saying `reason`.
    func endAll(reason: String) {
        for id in state.withLock({ Array($0.rooms.keys) }) { end(id, reason: reason) }
    }

    private func scheduleSweep() {
        let interval = min(max(limits.idleTimeout / 10, .milliseconds(50)), .seconds(30))
        timers.asyncAfter(deadline: .now() + Double(interval / .milliseconds(1)) / 1_000) { [weak self] in
            guard let self else { return }
            let now = ContinuousClock.now
            let idle = state.withLock { $0.rooms.values.filter { $0.isIdle(now: now, timeout: self.limits.idleTimeout) }.map(\.id) }
            for id in idle { end(id, reason: "idle") }
            scheduleSweep()
        }
    }
}

/// A room's limits, from the command line (`playground --help`, "Rooms").
struct RoomLimits: Sendable {
    /// Students per room (`--room-students`).
    var studentsPerRoom = 500
    /// Live rooms a teacher's address may hold (`--rooms-per-client`).
    var roomsPerClient = 20
    /// Live rooms at most (`--max-rooms`).
    var maxRooms = 200
    /// A room where nothing happens for this long ends (`--room-idle-seconds`).
    var idleTimeout: Duration = .seconds(3_600)
    /// Answers a student may send a second, and in a burst (changing their mind as they draw).
    var answersPerSecond = 5.0
    var answerBurst = 20.0
    /// The first character of this instance's join codes (`--room-code-prefix`), so that a proxy
    /// sends `POST /api/join/{code}` to the instance holding the room; `nil`: all six are random.
    var codePrefix: Character?
    /// Bytes of a room session's journal (``SessionJournal``): what a question replays.
    var journalBytes = 1024 * 1024
    /// Sessions each seat of a room (a student, or the teacher) may hold taken home from it
    /// (`--room-sessions-per-seat`), counted on the room's allowance, not the address's: a class
    /// behind one school address does not run out.
    var sessionsPerSeat = 4
}
