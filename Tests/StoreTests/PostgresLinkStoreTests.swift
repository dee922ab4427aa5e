import Foundation
import Testing

@testable import Store

/// The maintenance database of the PostgreSQL server the test command starts on loopback.
private let postgresServer = ProcessInfo.processInfo.environment["PLAYGROUND_TEST_POSTGRES"]

/// The PostgreSQL store of links, against a real server: the test command starts Debian's
/// PostgreSQL on loopback and names its maintenance database in `PLAYGROUND_TEST_POSTGRES`; each
/// test makes a database of its own there and drops it after. Without the variable (a machine
/// with no PostgreSQL) the suite does not run.
@Suite("Store: links in PostgreSQL", .enabled(if: postgresServer != nil))
struct PostgresLinkStoreTests {
    /// Runs `body` with the URL of a new, empty database, dropped afterwards.
    func withDatabase(_ body: (String) throws -> Void) throws {
        let server = try #require(postgresServer)
        let name = "playground_test_\(LinkID.random())"
        let maintenance = try PostgresConnection(url: server)
        _ = try maintenance.query("CREATE DATABASE \(name)")
        defer { _ = try? maintenance.query("DROP DATABASE \(name) WITH (FORCE)") }
        let base = server.hasSuffix("/postgres") ? String(server.dropLast("postgres".count)) : server + "/"
        try body(base + name)
    }

    let program = NewLink(kind: .program, title: "Search", content: "input query: text\nthrottled = query.throttle(0.5s)")

    @Test func aKeptLinkIsReadBackAndTheSameContentIsOneLink() throws {
        try withDatabase { url in
            let store = PostgresLinkStore(url: url)
            let (link, isNew) = try store.keep(program)
            #expect(isNew && LinkID.isWellFormed(link.id))
            #expect(try store.link(link.id) == link)
            let again = try store.keep(program)
            #expect(!again.isNew && again.link == link)
            let edited = try store.keep(NewLink(kind: .program, title: "Search", content: program.content + "\n", from: link.id)).link
            #expect(edited.id != link.id)
            #expect(try store.link(edited.id)?.from == link.id)
            #expect(try store.link("' OR 1=1 --") == nil)
            #expect(try store.link(LinkID.random()) == nil)
            #expect(try store.appliedMigrations() == ["1 links", "2 versions"])
        }
    }

    @Test func aFullStoreRefusesNewLinksAndStillAnswersKeptOnes() throws {
        try withDatabase { url in
            let store = PostgresLinkStore(url: url)
            let kept = try store.keep(program).link
            let size = try store.storedBytes()
            #expect(size > 0)
            let other = NewLink(kind: .program, title: "Other", content: "x = just(1)")
            do {
                _ = try store.keep(other, within: size)
                Issue.record("a store at its limit kept a new link")
            } catch {
                #expect((error as? StoreError)?.isFull == true)
            }
            #expect(try store.keep(program, within: 0) == (kept, false), "the same content again is answered, however full")
            #expect(try store.keep(other, within: size + 1_000_000).isNew)
        }
    }

    /// A database of the first version, with a link kept then: migrated when the store opens it,
    /// the old link read back unchanged.
    @Test func theSchemaIsMigratedFromThePreviousVersion() throws {
        try withDatabase { url in
            let id = LinkID.random()
            do {
                let old = try PostgresConnection(url: url)
                _ = try old.query("CREATE TABLE schema_migrations (identifier TEXT PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())")
                for statement in PostgresLinkStore.migrations[0].sql.components(separatedBy: ";\n") { _ = try old.query(statement) }
                _ = try old.query("INSERT INTO schema_migrations (identifier) VALUES ('1 links')")
                let digest = NewLink(kind: .program, title: "Old", content: "x = just(1)").digest
                _ = try old.query(
                    "INSERT INTO link (id, kind, title, content, digest, created) VALUES ($1, 'program', 'Old', 'x = just(1)', $2, 1700000000)",
                    [id, digest]
                )
            }
            let store = PostgresLinkStore(url: url)
            #expect(try store.appliedMigrations() == ["1 links", "2 versions"])
            let old = try #require(try store.link(id))
            #expect(old.title == "Old" && old.from == nil && old.created == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try store.keep(NewLink(kind: .program, title: "Old", content: "x = just(1)")).link == old)
        }
    }

    /// Two instances (two stores, two connections) keeping the same thing at once give it one id:
    /// the advisory lock on its digest orders them.
    @Test func instancesKeepingTheSameContentAtOnceMakeOneLink() throws {
        try withDatabase { url in
            let stores = (0..<4).map { _ in PostgresLinkStore(url: url) }
            let ids = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                if let id = try? stores[index % stores.count].keep(program).link.id { ids.append(id) }
            }
            #expect(ids.value.count == 16 && Set(ids.value).count == 1)
        }
    }

    /// A server that cannot be reached fails the calls, each with a clear error, and nothing else:
    /// the store connects when it answers (a database made after the store, here).
    @Test func aServerThatCannotBeReachedFailsItsCallsUntilItAnswers() throws {
        let unreachable = PostgresLinkStore(url: "postgres://nobody:wrong@127.0.0.1:1/none")
        #expect(throws: StoreError.self) { try unreachable.connect() }
        #expect(throws: StoreError.self) { try unreachable.keep(program) }
        let server = try #require(postgresServer)
        let name = "playground_test_\(LinkID.random())"
        let base = server.hasSuffix("/postgres") ? String(server.dropLast("postgres".count)) : server + "/"
        let later = PostgresLinkStore(url: base + name)
        #expect(throws: StoreError.self) { try later.keep(program) }  // no such database yet
        let maintenance = try PostgresConnection(url: server)
        _ = try maintenance.query("CREATE DATABASE \(name)")
        defer { _ = try? maintenance.query("DROP DATABASE \(name) WITH (FORCE)") }
        let kept = try later.keep(program).link
        #expect(try later.link(kept.id) == kept)
    }
}
