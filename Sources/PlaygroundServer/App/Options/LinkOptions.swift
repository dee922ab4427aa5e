import ArgumentParser
import Logging
import Store

/// Where links are kept and how much of the shared store one client may take: the flags that open
/// the store (SQLite or PostgreSQL) and set the links' rate limiters.
public struct LinkOptions: ParsableArguments {
    @Option(
        help:
            "Where links are kept: sqlite:PATH (a file, made with its folder when missing; sqlite::memory: keeps them as long as the process), or postgres://USER:PASSWORD@HOST:PORT/DATABASE for several instances sharing one store."
    )
    var database = "sqlite:.data/playground.sqlite"

    @Option(help: "Links a client may keep (POST /api/links) per second, sustained; more answer 429.")
    var linkSavesPerSecond = 2

    @Option(help: "Links a client may keep at once before --link-saves-per-second applies: a class saving together.")
    var linkSaveBurst = 60

    @Option(
        help:
            "Bytes of links a client may keep in an hour (programs, lessons, courses and kept runs of up to a MiB): the store is shared; more answer 429."
    )
    var linkBytesPerHour = API.defaultLinkBytesPerHour

    @Option(help: "The most bytes the store of links may take (SQLite's file, PostgreSQL's table); new links past it answer 507.")
    var maxStoreBytes = 1 << 30

    /// The defaults, as `playground` with no flags runs.
    public init() {}

    /// Checks every number of this group against its range, and what the group's flags say
    /// together, before anything is built from them.
    public func validate() throws {
        try OptionChecks.require(linkSavesPerSecond, in: 1...10_000, "--link-saves-per-second")
        // More than the largest link (a run: 1 MiB of events and its head), so that one always fits.
        try OptionChecks.require(linkBytesPerHour, in: (2 << 20)...(1 << 40), "--link-bytes-per-hour")
        try OptionChecks.require(linkSaveBurst, in: 1...100_000, "--link-save-burst")
        try OptionChecks.require(maxStoreBytes, in: (64 * 1024)...(1 << 50), "--max-store-bytes")
        if Self.sqlitePath(database) == nil, !Self.isPostgres(database) {
            throw ValidationError("--database must be sqlite:PATH, sqlite::memory: or postgres://USER:PASSWORD@HOST:PORT/DATABASE.")
        }
    }

    /// Whether `--database` names a PostgreSQL server (a URL libpq reads; at most 4 KiB).
    static func isPostgres(_ database: String) -> Bool {
        (database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")) && database.utf8.count <= 4_096
            && !database.contains("\u{0}")
    }

    /// The file `--database sqlite:PATH` names (`:memory:` for none), or nil for another value.
    static func sqlitePath(_ database: String) -> String? {
        guard database.hasPrefix("sqlite:") else { return nil }
        let path = String(database.dropFirst("sqlite:".count))
        return path.isEmpty || path.utf8.count > 4_096 || path.contains("\u{0}") ? nil : path
    }

    /// Opens the store and sets the links' limits. An SQLite file that cannot be opened is an
    /// error; a PostgreSQL server that does not answer yet is not: everything but links works
    /// meanwhile, and the store connects when it answers.
    func apply(to api: inout API, logger: Logger) throws {
        do {
            if let path = Self.sqlitePath(database) {
                let store = try SQLiteLinkStore(path: path)
                api.links = LinkStoreWorker(store: store, logger: logger)
                api.links?.recordSize(try store.storedBytes(), api.metrics)
            } else {
                let store = PostgresLinkStore(url: database)
                api.links = LinkStoreWorker(store: store, logger: logger)
                do {
                    try store.connect()
                    api.links?.recordSize(try store.storedBytes(), api.metrics)
                } catch {
                    logger.error("links unavailable until PostgreSQL answers (--database): \(error)")
                }
            }
        } catch {
            // A PostgreSQL URL may hold a password: it is never repeated.
            throw ValidationError("--database \(Self.isPostgres(database) ? "(PostgreSQL)" : database): \(error)")
        }
        api.linkSaves = ClientRateLimiter(perSecond: Double(linkSavesPerSecond), burst: Double(linkSaveBurst))
        api.linkBytes = ClientRateLimiter(perSecond: Double(linkBytesPerHour) / 3_600, burst: Double(linkBytesPerHour))
        api.maxStoreBytes = maxStoreBytes
    }
}
