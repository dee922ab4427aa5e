import ArgumentParser

/// How many rooms open, how many students each takes, how often an address may join and when a
/// room ends: the flags that become ``RoomLimits`` and the joins' rate limiter.
public struct RoomOptions: ParsableArguments {
    @Option(help: "Students one room takes at most; more answer 409 room_full.")
    var roomStudents = 500

    @Option(help: "Rooms one address may have open at once (a school's teachers share theirs); more answer 429.")
    var roomsPerClient = 20

    @Option(help: "Rooms open at most; more answer 503 too_many_rooms.")
    var maxRooms = 200

    @Option(
        help:
            "Joins a client address may make (POST /api/join/CODE) per second, sustained; a failed one (no room has the code, no name) counts ten. More answer 429."
    )
    var joinAttemptsPerSecond = 1

    @Option(help: "Joins a client address may make at once before --join-attempts-per-second applies: a class joining together.")
    var joinBurst = 100

    @Option(
        help:
            "Sessions each student (and the teacher) of a room may hold taken home from it, counted on the room's allowance rather than their address's --max-sessions-per-client (a class behind one school address); more answer 429 seat_sessions_used."
    )
    var roomSessionsPerSeat = 4

    @Option(help: "Seconds after which a room where nobody drives, asks, joins or answers ends, with its session.")
    var roomIdleSeconds = 3_600

    @Option(
        help:
            "This instance's first character of every room's join code (one of ACEFGHJKMNPRTWXY34679), so that a proxy in front of several instances sends POST /api/join/CODE to the one holding the room."
    )
    var roomCodePrefix: String?

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        try OptionChecks.require(roomStudents, in: 1...100_000, "--room-students")
        try OptionChecks.require(roomsPerClient, in: 1...10_000, "--rooms-per-client")
        try OptionChecks.require(maxRooms, in: 1...100_000, "--max-rooms")
        try OptionChecks.require(roomIdleSeconds, in: 1...86_400, "--room-idle-seconds")
        try OptionChecks.require(roomSessionsPerSeat, in: 1...1_000, "--room-sessions-per-seat")
        try OptionChecks.require(joinAttemptsPerSecond, in: 1...10_000, "--join-attempts-per-second")
        try OptionChecks.require(joinBurst, in: 1...100_000, "--join-burst")
        if let roomCodePrefix, roomCodePrefix.count != 1 || !RoomKeys.codeAlphabet.contains(roomCodePrefix.first!) {
            throw ValidationError("--room-code-prefix must be one of \(String(RoomKeys.codeAlphabet)).")
        }
    }

    /// The rooms' limits.
    var limits: RoomLimits {
        var limits = RoomLimits()
        limits.studentsPerRoom = roomStudents
        limits.roomsPerClient = roomsPerClient
        limits.maxRooms = maxRooms
        limits.idleTimeout = .seconds(roomIdleSeconds)
        limits.sessionsPerSeat = roomSessionsPerSeat
        limits.codePrefix = roomCodePrefix?.first
        return limits
    }

    /// The joins' rate limiter.
    var joinAttempts: ClientRateLimiter {
        ClientRateLimiter(perSecond: Double(joinAttemptsPerSecond), burst: Double(joinBurst))
    }
}
