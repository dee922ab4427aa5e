import Foundation
import GRDB

/// Links in SQLite, through GRDB: the default store, one file (`--database sqlite:PATH`).
///
/// One connection, serialized (GRDB's `DatabaseQueue`), in write-ahead-log mode: a link is kept in
/// one short write transaction, in which the lookup of the same content and the insert cannot
/// interleave with another writer's, so the same content always gets one id.
public final class SQLiteLinkStore: LinkStore {
    private let database: DatabaseQueue

    /// Opens (or creates) the database at `path` and brings its schema up to date; `":memory:"`
    /// opens one that lives as long as the store.
    public init(path: String) throws(StoreError) {
        do {
            if path != ":memory:" {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            // Write-ahead logging: a commit is one append and one fsync of the log, not a rollback
            // journal's two; FULL keeps that fsync, so a link answered 201 outlives a power cut,
            // not only a killed process.
            configuration.prepareDatabase { db in
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            database =
                path == ":memory:" ? try DatabaseQueue(configuration: configuration) : try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw StoreError("the SQLite database at \(path) cannot be opened: \(error)")
        }
    }

    /// The schema's versions, in order; each runs once, at start, on a database that lacks it.
    /// A released migration is never changed: a change is a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 links") { db in
            try db.execute(
                sql: """
                    CREATE TABLE link (
                        id TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL,
                        title TEXT NOT NULL,
                        content TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        created INTEGER NOT NULL
                    );
                    CREATE INDEX link_digest ON link (digest);
                    """
            )
        }
        migrator.registerMigration("2 versions") { db in
            // An edit is a new link made from the old one; links kept before have no `from`.
            try db.execute(sql: "ALTER TABLE link ADD COLUMN from_id TEXT REFERENCES link (id)")
        }
        return migrator
    }

    /// The migrations applied to this store's database, in order.
    func appliedMigrations() throws -> [String] {
        try database.read { try Self.migrator.appliedMigrations($0) }
    }

    public func keep(_ link: NewLink, within maxBytes: Int) throws(StoreError) -> (link: Link, isNew: Bool) {
        do {
            return try database.write { db in
                let digest = link.digest
                for row in try Row.fetchAll(db, sql: "SELECT * FROM link WHERE digest = ?", arguments: [digest]) {
                    if let kept = Self.link(from: row), kept.matches(link) { return (kept, false) }
                }
                let stored = try Self.storedBytes(db)
                if stored > maxBytes - link.bytes { throw StoreError.full(holding: stored, limit: maxBytes) }
                let created = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
                var id = LinkID.random()
                while try Bool.fetchOne(db, sql: "SELECT 1 FROM link WHERE id = ?", arguments: [id]) == true { id = LinkID.random() }
                try db.execute(
                    sql: "INSERT INTO link (id, kind, title, content, digest, created, from_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [id, link.kind.rawValue, link.title, link.content, digest, Int64(created.timeIntervalSince1970), link.from]
                )
                return (Link(id: id, kind: link.kind, title: link.title, content: link.content, created: created, from: link.from), true)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("a link could not be kept: \(error)")
        }
    }

    public func storedBytes() throws(StoreError) -> Int {
        do {
            return try database.read(Self.storedBytes)
        } catch {
            throw StoreError("the store's size could not be read: \(error)")
        }
    }

    /// The database's pages in use, in bytes (free pages left by a deletion are not counted).
    private static func storedBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "SELECT page_count - freelist_count FROM pragma_page_count(), pragma_freelist_count()") ?? 0
        let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        return pages * size
    }

    public func link(_ id: String) throws(StoreError) -> Link? {
        guard LinkID.isWellFormed(id) else { return nil }
        do {
            return try database.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM link WHERE id = ?", arguments: [id]).flatMap(Self.link(from:))
            }
        } catch {
            throw StoreError("link \(id) could not be read: \(error)")
        }
    }

    /// A row as a link; nil for a row of a kind this version does not know.
    private static func link(from row: Row) -> Link? {
        guard let kind = LinkKind(rawValue: row["kind"]) else { return nil }
        let seconds: Int64 = row["created"]
        return Link(
            id: row["id"],
            kind: kind,
            title: row["title"],
            content: row["content"],
            created: Date(timeIntervalSince1970: TimeInterval(seconds)),
            from: row.hasColumn("from_id") ? row["from_id"] : nil
        )
    }
}

extension Link {
    /// Whether this link keeps exactly what `new` asks to keep.
    func matches(_ new: NewLink) -> Bool {
        kind == new.kind && title == new.title && content == new.content && from == new.from
    }
}
