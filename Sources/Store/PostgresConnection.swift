import CLibPQ
import Foundation

/// When a store call must be over: every wait of a ``PostgresConnection`` ends by it.
struct PostgresDeadline: Sendable {
    /// The instant the call's time is up.
    let end: ContinuousClock.Instant
    /// The time the call was given, for the message of a call that ran out of it.
    let allowed: Duration

    /// A deadline `allowed` from now.
    init(in allowed: Duration) {
        self.allowed = allowed
        end = .now + allowed
    }

    /// Whether the call's time is up.
    var hasPassed: Bool { ContinuousClock.now >= end }

    /// The time left in whole milliseconds, as `poll` takes it: rounded up, so that a wait never
    /// ends before the deadline; 0 once it has passed.
    var millisecondsLeft: Int32 {
        let left = end - .now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// What a call that ran out of its time throws.
    var expired: StoreError { StoreError("PostgreSQL did not answer within \(allowed)") }
}

/// One libpq connection, each of its waits ended by ``deadline``: its calls, their errors as
/// ``StoreError``s, and its migrations; closed when the last reference goes.
///
/// libpq's blocking calls (`PQconnectdb`, `PQexecParams`) wait on the socket with no end, and a
/// server that stops answering while its kernel keeps the connection open (a stopped process)
/// held the store's thread for as long (issue #70). So only libpq's asynchronous calls are made —
/// `PQconnectStart` and `PQconnectPoll`, `PQsendQueryParams`, `PQflush`, `PQconsumeInput`,
/// `PQisBusy` and `PQgetResult`, on a socket in non-blocking mode — and the one wait is `poll`,
/// for the time left. A connection whose wait ran out is left in the middle of an exchange: it is
/// no longer usable, and the store drops it. No cancel request is sent: `PQcancel` opens another
/// connection and waits on it with no end, which a stopped server would hold; the server's
/// `statement_timeout`, the deadline too, ends whatever it was running.
final class PostgresConnection: @unchecked Sendable {  // used only under the store's lock
    private let handle: OpaquePointer
    /// When the call in progress must be over; the store sets it as each call begins.
    var deadline: PostgresDeadline
    /// Whether a call stopped in the middle of an exchange (a wait that ran out, a socket that
    /// failed): what libpq has half sent or half read makes the connection unusable.
    private var isAbandoned = false

    /// Connects to `url` by `deadline`, or throws.
    init(url: String, by deadline: PostgresDeadline) throws(StoreError) {
        handle = try Self.connect(url, by: deadline)
        self.deadline = deadline
    }

    deinit {
        PQfinish(handle)  // its goodbye is not waited for: the socket is non-blocking
    }

    /// Whether calls may go on using it: connected, and not left in the middle of an exchange.
    var isUsable: Bool {
        !isAbandoned && PQstatus(handle) == CONNECTION_OK
    }

    /// A handle connected to `url` in non-blocking mode, through libpq's documented polling loop
    /// (which ignores the URL's `connect_timeout`: the deadline bounds it instead). A host's name
    /// is looked up as it starts, by the system's resolver and its own time limits.
    private static func connect(_ url: String, by deadline: PostgresDeadline) throws(StoreError) -> OpaquePointer {
        guard let handle = PQconnectStart(url) else { throw StoreError("PostgreSQL: no memory for a connection") }
        do throws(StoreError) {
            var polled = PGRES_POLLING_WRITING  // where libpq's documentation says to begin
            while polled != PGRES_POLLING_OK {
                switch polled {
                case PGRES_POLLING_READING: _ = try wait(handle, for: POLLIN, by: deadline)
                case PGRES_POLLING_WRITING: _ = try wait(handle, for: POLLOUT, by: deadline)
                default: throw StoreError("PostgreSQL cannot be reached: \(message(handle))")
                }
                polled = PQconnectPoll(handle)
            }
            guard PQsetnonblocking(handle, 1) == 0 else { throw StoreError("PostgreSQL: \(message(handle))") }
            return handle
        } catch {
            PQfinish(handle)
            throw error
        }
    }

    /// Waits until the socket of `handle` is ready for `events` (`poll`'s) and answers what it is
    /// ready for, or throws the deadline's error once it has passed: the one place a connection
    /// waits.
    private static func wait(_ handle: OpaquePointer, for events: Int32, by deadline: PostgresDeadline) throws(StoreError) -> Int16 {
        while true {
            let left = deadline.millisecondsLeft
            guard left > 0 else { throw deadline.expired }
            var watched = pollfd(fd: PQsocket(handle), events: Int16(events), revents: 0)
            guard watched.fd >= 0 else { throw StoreError("PostgreSQL connection lost: \(message(handle))") }
            let ready = poll(&watched, 1, left)
            if ready > 0 { return watched.revents }
            if ready < 0, errno != EINTR { throw StoreError("PostgreSQL: poll failed: \(String(cString: strerror(errno)))") }
        }
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`… as text; nil is NULL); answers the rows, each
    /// column as text (nil for NULL). Throws at once on a connection that is not usable.
    func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        guard isUsable else { throw StoreError("PostgreSQL connection lost earlier in this call") }
        try send(sql, parameters)
        return try results()
    }

    /// Sends the query. What the socket does not take at once stays in libpq's buffer and is
    /// flushed as the server reads, its answers read meanwhile (libpq's documented loop): a
    /// server that stops reading holds a large link no longer than the deadline.
    private func send(_ sql: String, _ parameters: [String?]) throws(StoreError) {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer<CChar>($0) }
        let sent = values.withUnsafeBufferPointer { buffer in
            PQsendQueryParams(handle, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw lost() }
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { return }
            guard flushed == 1 else { throw lost() }
            let ready = try wait(for: POLLIN | POLLOUT)
            if ready & Int16(POLLIN) != 0, PQconsumeInput(handle) != 1 { throw lost() }
        }
    }

    /// Reads the query's results until libpq has no more: the rows of the first, or the first
    /// error. (With TLS this relies on PostgreSQL's records of at most 8 kB, which libpq reads
    /// whole; a larger one would wait for the socket, and end at the deadline.)
    private func results() throws(StoreError) -> [[String?]] {
        var rows: [[String?]]?
        var failure: StoreError?
        while true {
            while PQisBusy(handle) == 1 {
                _ = try wait(for: POLLIN)
                guard PQconsumeInput(handle) == 1 else { throw lost() }
            }
            guard let result = PQgetResult(handle) else { break }
            switch Self.rows(of: result) {
            case .success(let read): rows = rows ?? read
            case .failure(let error): failure = failure ?? error
            }
            PQclear(result)
        }
        if let failure { throw failure }
        return rows ?? []
    }

    /// Waits for the socket as ``wait(_:for:by:)`` does; a wait that fails abandons the connection.
    private func wait(for events: Int32) throws(StoreError) -> Int16 {
        do throws(StoreError) {
            return try Self.wait(handle, for: events, by: deadline)
        } catch {
            isAbandoned = true
            throw error
        }
    }

    /// The connection failed in the middle of an exchange: abandoned, and said why.
    private func lost() -> StoreError {
        isAbandoned = true
        return StoreError("PostgreSQL connection lost: \(Self.message(handle))")
    }

    /// A result's rows, or its error.
    private static func rows(of result: OpaquePointer) -> Result<[[String?]], StoreError> {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return .success([])
        case PGRES_TUPLES_OK:
            let rows = (0..<PQntuples(result)).map { row in
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
            return .success(rows)
        default:
            let message = String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(StoreError("PostgreSQL: \(message)"))
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        _ = try query("BEGIN")
        do {
            let value = try body(self)
            _ = try query("COMMIT")
            return value
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }

    /// Applies the migrations this database lacks, in order, each in a transaction; a session
    /// advisory lock keeps two instances starting at once from applying one twice.
    func migrate() throws(StoreError) {
        _ = try query("SELECT pg_advisory_lock(7337001)")
        defer { _ = try? query("SELECT pg_advisory_unlock(7337001)") }
        _ = try query("CREATE TABLE IF NOT EXISTS schema_migrations (identifier TEXT PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())")
        let applied = Set(try query("SELECT identifier FROM schema_migrations").compactMap { $0.first ?? nil })
        for migration in PostgresLinkStore.migrations where !applied.contains(migration.identifier) {
            try transaction { (connection: PostgresConnection) throws(StoreError) in
                for statement in migration.sql.components(separatedBy: ";\n") { _ = try connection.query(statement) }
                _ = try connection.query("INSERT INTO schema_migrations (identifier) VALUES ($1)", [migration.identifier])
            }
        }
    }
}
