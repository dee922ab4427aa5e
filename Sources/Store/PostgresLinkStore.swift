import CLibPQ
import Foundation
import Locking

/// Links in PostgreSQL, for several instances sharing one store (`--database postgres://…`),
/// through libpq (`CLibPQ`).
///
/// One connection, used by one call at a time (a lock; the server calls the store from its one
/// store thread anyway), made when first needed and made again after the server dropped it, so a
/// database that is down fails only the calls made meanwhile (the routes answer 503) and the store
/// recovers when it is back. Connecting waits at most ``connectTimeoutSeconds``, a statement at
/// most ``statementTimeoutMilliseconds``. Each call is one short transaction; keeping a link takes
/// a transaction-scoped advisory lock on its digest first, so that two instances keeping the same
/// thing at once give it one id, as SQLite's single writer does.
public final class PostgresLinkStore: LinkStore {
    /// How long connecting may take, unless the URL says otherwise (libpq's `connect_timeout`).
    static let connectTimeoutSeconds = 5
    /// How long one statement may run on the server.
    static let statementTimeoutMilliseconds = 10_000

    private let url: String
    private let connection = Lock<PostgresConnection?>(nil)

    /// A store on the database at `url` (`postgres://user:password@host:port/database`, as libpq
    /// reads it). Nothing is connected yet: ``connect()`` does it now, any call when needed.
    public init(url: String) {
        let separator = url.contains("?") ? "&" : "?"
        self.url = url.contains("connect_timeout=") ? url : url + "\(separator)connect_timeout=\(Self.connectTimeoutSeconds)"
    }

    /// Connects now and brings the schema up to date, once for all instances (an advisory lock
    /// around it); the server calls it at start to say at once when the database cannot be reached.
    public func connect() throws(StoreError) {
        _ = try withConnection { _ in () }
    }

    public func keep(_ link: NewLink, within maxBytes: Int) throws(StoreError) -> (link: Link, isNew: Bool) {
        try withConnection { (connection: PostgresConnection) throws(StoreError) -> (link: Link, isNew: Bool) in
            try connection.transaction { (connection: PostgresConnection) throws(StoreError) -> (link: Link, isNew: Bool) in
                let digest = link.digest
                _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [digest])
                for row in try connection.query("SELECT \(Self.columns) FROM link WHERE digest = $1", [digest]) {
                    if let kept = Self.link(from: row), kept.matches(link) { return (kept, false) }
                }
                let stored = try Self.storedBytes(connection)
                if stored > maxBytes - link.bytes { throw StoreError.full(holding: stored, limit: maxBytes) }
                let created = Int64(Date().timeIntervalSince1970.rounded(.down))
                var id = LinkID.random()
                while try !connection.query("SELECT 1 FROM link WHERE id = $1", [id]).isEmpty { id = LinkID.random() }
                _ = try connection.query(
                    "INSERT INTO link (id, kind, title, content, digest, created, from_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    [id, link.kind.rawValue, link.title, link.content, digest, String(created), link.from]
                )
                let date = Date(timeIntervalSince1970: TimeInterval(created))
                return (Link(id: id, kind: link.kind, title: link.title, content: link.content, created: date, from: link.from), true)
            }
        }
    }

    public func storedBytes() throws(StoreError) -> Int {
        try withConnection(Self.storedBytes)
    }

    /// The links' table with its indexes and TOAST, in bytes.
    private static func storedBytes(_ connection: PostgresConnection) throws(StoreError) -> Int {
        let answer = try connection.query("SELECT pg_total_relation_size('link')")
        return answer.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
    }

    public func link(_ id: String) throws(StoreError) -> Link? {
        guard LinkID.isWellFormed(id) else { return nil }
        return try withConnection { (connection: PostgresConnection) throws(StoreError) -> Link? in
            try connection.query("SELECT \(Self.columns) FROM link WHERE id = $1", [id]).first.flatMap(Self.link(from:))
        }
    }

    /// Runs `body` with the connection, one call at a time: connected (and migrated) first when
    /// there is none; forgotten after a call that found it broken, so the next one connects anew.
    private func withConnection<T>(_ body: (PostgresConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try connection.withLock { (kept: inout PostgresConnection?) throws -> T in
                let current: PostgresConnection
                if let kept, kept.isUsable {
                    current = kept
                } else {
                    kept = nil
                    current = try PostgresConnection(url: url)
                    _ = try current.query("SET statement_timeout = \(Self.statementTimeoutMilliseconds)")
                    try current.migrate()
                    kept = current
                }
                do {
                    return try body(current)
                } catch {
                    if !current.isUsable { kept = nil }
                    throw error
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("PostgreSQL: \(error)")
        }
    }

    /// The columns read, in the order ``link(from:)`` takes them.
    private static let columns = "id, kind, title, content, created, from_id"

    private static func link(from row: [String?]) -> Link? {
        guard row.count == 6, let id = row[0], let kind = row[1].flatMap(LinkKind.init(rawValue:)), let title = row[2],
            let content = row[3], let created = row[4].flatMap({ Int64($0) })
        else { return nil }
        return Link(id: id, kind: kind, title: title, content: content, created: Date(timeIntervalSince1970: TimeInterval(created)), from: row[5])
    }

    /// The schema's versions, the same as SQLite's (``SQLiteLinkStore/migrator``), in PostgreSQL's
    /// words; each runs once, in a transaction, recorded in `schema_migrations`.
    static let migrations: [(identifier: String, sql: String)] = [
        (
            "1 links",
            """
            CREATE TABLE link (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                title TEXT NOT NULL,
                content TEXT NOT NULL,
                digest TEXT NOT NULL,
                created BIGINT NOT NULL
            );
            CREATE INDEX link_digest ON link (digest)
            """
        ),
        ("2 versions", "ALTER TABLE link ADD COLUMN from_id TEXT REFERENCES link (id)"),
    ]

    /// The migrations applied to this store's database, in order (for the tests).
    func appliedMigrations() throws(StoreError) -> [String] {
        try withConnection { (connection: PostgresConnection) throws(StoreError) -> [String] in
            try connection.query("SELECT identifier FROM schema_migrations ORDER BY applied, identifier").compactMap { $0.first ?? nil }
        }
    }
}

/// One libpq connection: its calls, their errors as ``StoreError``s, and its migrations; closed
/// when the last reference goes.
final class PostgresConnection: @unchecked Sendable {  // used only under the store's lock
    private let handle: OpaquePointer

    init(url: String) throws(StoreError) {
        guard let handle = PQconnectdb(url) else { throw StoreError("PostgreSQL: no memory for a connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw StoreError("PostgreSQL cannot be reached: \(message)")
        }
        self.handle = handle
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the server still answers on this connection (a reset is tried once when not).
    var isUsable: Bool {
        if PQstatus(handle) != CONNECTION_OK { PQreset(handle) }
        return PQstatus(handle) == CONNECTION_OK
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `sql` with `parameters` (`$1`, `$2`… as text; nil is NULL), reconnecting once when
    /// the server dropped the connection; answers the rows, each column as text (nil for NULL).
    func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        guard isUsable else { throw StoreError("PostgreSQL connection lost: \(Self.message(handle))") }
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for copy in copies { free(copy) } }
        let values = copies.map { UnsafePointer<CChar>($0) }
        let result = values.withUnsafeBufferPointer { buffer in
            PQexecParams(handle, sql, Int32(parameters.count), nil, buffer.baseAddress, nil, nil, 0)
        }
        guard let result else { throw StoreError("PostgreSQL: \(Self.message(handle))") }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return []
        case PGRES_TUPLES_OK:
            return (0..<PQntuples(result)).map { row in
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
        default:
            throw StoreError("PostgreSQL: \(String(cString: PQresultErrorMessage(result)).trimmingCharacters(in: .whitespacesAndNewlines))")
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
