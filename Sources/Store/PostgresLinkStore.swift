import Foundation
import Locking

/// Links in PostgreSQL, for several instances sharing one store (`--database postgres://…`),
/// through libpq (`CLibPQ`).
///
/// One connection, used by one call at a time under a lock (the server calls the store from its
/// one store thread anyway; a second caller waits for the call ahead, which is bounded too), made
/// when first needed and made again after one broke, so a database that is down fails only the
/// calls made meanwhile (the routes answer 503) and the store recovers when it is back. No call
/// can hang: each has ``callDeadline``, connecting and every statement included
/// (``PostgresConnection``), and after a call that ran out of it every call throws at once for
/// ``coolDown``, so the calls queued behind a database that stopped answering are answered
/// together instead of a deadline each. Each call is one short transaction; keeping a link takes
/// a transaction-scoped advisory lock on its digest first, so that two instances keeping the same
/// thing at once give it one id, as SQLite's single writer does.
public final class PostgresLinkStore: LinkStore {
    /// How long one call may take, connecting, migrating and all its statements included: then it
    /// throws. Links take milliseconds, so three seconds is far beyond a loaded machine's worst,
    /// yet soon enough for a page waiting on a link; the server's `statement_timeout` is the same,
    /// so that nothing a call started goes on running after the call gave up.
    static let callDeadline = Duration.seconds(3)
    /// How long every call throws at once, without asking the database, after a call ran out of
    /// its deadline: a stopped server would hold each queued call for a whole deadline (30 reads,
    /// 90 s). The first call after it asks again. Shorter than the 503's `Retry-After` (5 s), so a
    /// client that waits as told reaches a store that asks. A call that fails sooner (a refused
    /// connection, a database that does not exist) costs no wait, and starts no cool-down.
    static let coolDown = Duration.seconds(2)
    /// libpq's options the URL gets unless it sets them: TCP keepalives, and a limit on data left
    /// unacknowledged, so that a connection whose server or network vanished while it was idle is
    /// closed by the kernel within about 25 s (10 s idle, then 3 probes 5 s apart), and the next
    /// call fails at once rather than at its deadline. (A stopped server's kernel still
    /// acknowledges: only the deadline ends that.)
    static let clientOptions = [
        (name: "keepalives", value: "1"),
        (name: "keepalives_idle", value: "10"),
        (name: "keepalives_interval", value: "5"),
        (name: "keepalives_count", value: "3"),
        (name: "tcp_user_timeout", value: "10000"),
    ]

    private let url: String
    private let state = Lock(State())

    /// The connection (none until made, and after one broke) and when the cool-down ends.
    private struct State: Sendable {
        var connection: PostgresConnection?
        var coolingUntil: ContinuousClock.Instant?
    }

    /// A store on the database at `url` (`postgres://user:password@host:port/database`, as libpq
    /// reads it). Nothing is connected yet: ``connect()`` does it now, any call when needed.
    public init(url: String) {
        self.url = Self.withClientOptions(url)
    }

    /// `url` with each of ``clientOptions`` that its query does not name.
    static func withClientOptions(_ url: String) -> String {
        let query = url.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        let named = Set(query.split(separator: "&").map { String($0.prefix { $0 != "=" }) })
        var completed = url
        for option in clientOptions where !named.contains(option.name) {
            completed += (completed.contains("?") ? "&" : "?") + "\(option.name)=\(option.value)"
        }
        return completed
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

    /// Runs `body` with the connection, one call at a time, by the call's deadline: connected (and
    /// migrated) first when there is none; forgotten after a call that left it unusable, so the next
    /// one connects anew. Throws at once while cooling down.
    private func withConnection<T>(_ body: (PostgresConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try state.withLock { (state: inout State) throws(StoreError) -> T in
                if let coolingUntil = state.coolingUntil, ContinuousClock.now < coolingUntil {
                    throw StoreError("PostgreSQL did not answer within \(Self.callDeadline) a moment ago; it is asked again \(Self.coolDown) after")
                }
                let deadline = PostgresDeadline(in: Self.callDeadline)
                do throws(StoreError) {
                    return try body(try usableConnection(&state.connection, by: deadline))
                } catch {
                    if state.connection?.isUsable == false { state.connection = nil }
                    if deadline.hasPassed { state.coolingUntil = .now + Self.coolDown }
                    throw error
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("PostgreSQL: \(error)")
        }
    }

    /// The kept connection if it is usable, given `deadline`; else a new one, set up and kept.
    private func usableConnection(_ kept: inout PostgresConnection?, by deadline: PostgresDeadline) throws(StoreError) -> PostgresConnection {
        if let current = kept, current.isUsable {
            current.deadline = deadline
            return current
        }
        kept = nil
        let made = try PostgresConnection(url: url, by: deadline)
        _ = try made.query("SET statement_timeout = \(Int(Self.callDeadline / .milliseconds(1)))")
        try made.migrate()
        kept = made
        return made
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
