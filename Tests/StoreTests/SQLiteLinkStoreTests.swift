import Foundation
import GRDB
import Testing

@testable import Store

/// The SQLite store of links: what is kept is read back, the same content is one link, ids are
/// random and never put into a query, and the schema's migrations run from an empty database and
/// from the previous version.
@Suite("Store: links in SQLite")
struct SQLiteLinkStoreTests {
    /// A database file of its own, in a folder removed when the test ends.
    func withDatabaseFile(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("links.sqlite").path)
    }

    let program = NewLink(kind: .program, title: "Search", content: "input query: text\nthrottled = query.throttle(0.5s)")

    @Test func aKeptLinkIsReadBack() throws {
        let store = try SQLiteLinkStore(path: ":memory:")
        let (link, isNew) = try store.keep(program)
        #expect(isNew)
        #expect(LinkID.isWellFormed(link.id))
        #expect(try store.link(link.id) == link)
        #expect(link.kind == .program && link.title == "Search" && link.content == program.content && link.from == nil)
        #expect(abs(link.created.timeIntervalSinceNow) < 60)
    }

    @Test func theSameContentIsOneLinkAndAnythingElseAnother() throws {
        let store = try SQLiteLinkStore(path: ":memory:")
        let first = try store.keep(program).link
        let again = try store.keep(program)
        #expect(!again.isNew && again.link == first)
        let retitled = try store.keep(NewLink(kind: .program, title: "Search, again", content: program.content)).link
        let edited = try store.keep(NewLink(kind: .program, title: "Search", content: program.content + "\n", from: first.id)).link
        let asLesson = try store.keep(NewLink(kind: .lesson, title: "Search", content: program.content)).link
        #expect(Set([first.id, retitled.id, edited.id, asLesson.id]).count == 4)
        #expect(try store.link(edited.id)?.from == first.id, "a new version says what it was made from")
    }

    @Test func aFullStoreRefusesNewLinksAndStillAnswersKeptOnes() throws {
        let store = try SQLiteLinkStore(path: ":memory:")
        let kept = try store.keep(program).link
        let size = try store.storedBytes()
        #expect(size > 0)
        let large = NewLink(kind: .program, title: "Large", content: "x = just(\"\(String(repeating: "a", count: 30_000))\")")
        do {
            _ = try store.keep(large, within: size + 10_000)
            Issue.record("a store at its limit kept a new link")
        } catch {
            #expect(error.isFull)
        }
        #expect(try store.keep(program, within: 0) == (kept, false), "the same content again is answered, however full")
        #expect(try store.keep(large, within: size + 100_000).isNew)
        let after = try store.storedBytes()
        #expect(after > size + 20_000, "the size counts what is kept: \(size) then \(after)")
    }

    @Test func idsAreRandomAndAnIdFromOutsideIsOnlyCompared() throws {
        let ids = (0..<1_000).map { _ in LinkID.random() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { LinkID.isWellFormed($0) })
        #expect(!ids.joined().contains { "01ilo".contains($0) }, "no look-alikes")
        let store = try SQLiteLinkStore(path: ":memory:")
        let kept = try store.keep(program).link
        for hostile in [
            "", "' OR 1=1 --", String(repeating: "a", count: 10_000), kept.id.uppercased(), String(kept.id.dropLast()), "../../etc/passwd",
        ] {
            #expect(try store.link(hostile) == nil, "\(hostile.prefix(20))")
        }
        #expect(try store.link(LinkID.random()) == nil)
    }

    @Test func theSchemaIsMigratedFromAnEmptyDatabaseAndLinksOutliveTheProcess() throws {
        try withDatabaseFile { path in
            let kept = try SQLiteLinkStore(path: path).keep(program).link
            let reopened = try SQLiteLinkStore(path: path)
            #expect(try reopened.appliedMigrations() == ["1 links", "2 versions"])
            #expect(try reopened.link(kept.id) == kept)
        }
    }

    /// A database of the first version, with a link kept then, opened by this version: migrated,
    /// the old link read as it was, and new links kept beside it.
    @Test func theSchemaIsMigratedFromThePreviousVersion() throws {
        try withDatabaseFile { path in
            let id = LinkID.random()
            do {
                let old = try DatabaseQueue(path: path)
                try SQLiteLinkStore.migrator.migrate(old, upTo: "1 links")
                try old.write { db in
                    try db.execute(
                        sql:
                            "INSERT INTO link (id, kind, title, content, digest, created) VALUES (?, 'program', 'Old', 'x = just(1)', ?, 1700000000)",
                        arguments: [id, NewLink(kind: .program, title: "Old", content: "x = just(1)").digest]
                    )
                }
            }
            let store = try SQLiteLinkStore(path: path)
            #expect(try store.appliedMigrations() == ["1 links", "2 versions"])
            let old = try #require(try store.link(id))
            #expect(old.title == "Old" && old.from == nil && old.created == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try store.keep(NewLink(kind: .program, title: "Old", content: "x = just(1)")).link == old, "the same content")
            let newer = try store.keep(NewLink(kind: .program, title: "Old", content: "x = just(2)", from: id)).link
            #expect(try store.link(newer.id)?.from == id)
        }
    }

    @Test func aDatabaseThatCannotBeOpenedIsAClearError() {
        #expect(throws: StoreError.self) { try SQLiteLinkStore(path: "/proc/self/no-such-folder/links.sqlite") }
    }

    /// Threads keeping the same thing at once make one link: the lookup and the insert are one
    /// write transaction.
    @Test func keepsAtOnceOfTheSameContentMakeOneLink() throws {
        try withDatabaseFile { path in
            let store = try SQLiteLinkStore(path: path)
            let ids = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { _ in
                if let id = try? store.keep(program).link.id { ids.append(id) }
            }
            #expect(ids.value.count == 16 && Set(ids.value).count == 1)
        }
    }
}

/// A value shared by threads in a test.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func append<Element>(_ element: Element) where Value == [Element] { lock.withLock { stored.append(element) } }
}
