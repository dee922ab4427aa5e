import Foundation
import Synchronization
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
    func withDatabase(_ body: (String) async throws -> Void) async throws {
        let server = try #require(postgresServer)
        let name = "playground_test_\(LinkID.random())"
        try run("CREATE DATABASE \(name)", on: server)
        defer { try? run("DROP DATABASE \(name) WITH (FORCE)", on: server) }
        let base = server.hasSuffix("/postgres") ? String(server.dropLast("postgres".count)) : server + "/"
        try await body(base + name)
    }

    /// Runs `sql` on a connection of its own to `url`, with time to spare on a loaded machine.
    func run(_ sql: String, on url: String) throws {
        _ = try PostgresConnection(url: url, by: PostgresDeadline(in: .seconds(60))).query(sql)
    }

    let program = NewLink(kind: .program, title: "Search", content: "input query: text\nthrottled = query.throttle(0.5s)")

    @Test func aKeptLinkIsReadBackAndTheSameContentIsOneLink() async throws {
        try await withDatabase { url in
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

    @Test func aFullStoreRefusesNewLinksAndStillAnswersKeptOnes() async throws {
        try await withDatabase { url in
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
    @Test func theSchemaIsMigratedFromThePreviousVersion() async throws {
        try await withDatabase { url in
            let id = LinkID.random()
            do {
                let old = try PostgresConnection(url: url, by: PostgresDeadline(in: .seconds(60)))
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
    @Test func instancesKeepingTheSameContentAtOnceMakeOneLink() async throws {
        try await withDatabase { url in
            let stores = (0..<4).map { _ in PostgresLinkStore(url: url) }
            let ids = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                if let id = try? stores[index % stores.count].keep(program).link.id { ids.append(id) }
            }
            #expect(ids.value.count == 16 && Set(ids.value).count == 1)
        }
    }

    /// A server that cannot be reached fails the calls at once, each with a clear error, and
    /// nothing else: a failure that cost no wait starts no cool-down, so the store connects as soon
    /// as the server answers (a database made after the store, here).
    @Test func aServerThatCannotBeReachedFailsItsCallsUntilItAnswers() throws {
        let unreachable = PostgresLinkStore(url: "postgres://nobody:wrong@127.0.0.1:1/none")
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: StoreError.self) { try unreachable.connect() }
        #expect(throws: StoreError.self) { try unreachable.keep(program) }
        #expect(clock.now - started < PostgresLinkStore.callDeadline, "refused twice, each at once")
        let server = try #require(postgresServer)
        let name = "playground_test_\(LinkID.random())"
        let base = server.hasSuffix("/postgres") ? String(server.dropLast("postgres".count)) : server + "/"
        let later = PostgresLinkStore(url: base + name)
        #expect(throws: StoreError.self) { try later.keep(program) }  // no such database yet
        try run("CREATE DATABASE \(name)", on: server)
        defer { try? run("DROP DATABASE \(name) WITH (FORCE)", on: server) }
        let kept = try later.keep(program).link
        #expect(try later.link(kept.id) == kept)
    }

    /// A server whose kernel completes the handshake but which never answers (a stopped
    /// postmaster) fails a call at its deadline, then every call at once for the cool-down; the
    /// first call after it asks again, and waits its deadline again.
    @Test func aServerThatNeverAnswersFailsByTheDeadlineThenAtOnceUntilTheCoolDownEnds() async throws {
        let hole = try Listener()
        let store = PostgresLinkStore(url: "postgres://nobody:s3cret@127.0.0.1:\(hole.port)/none")
        let program = program
        // Back to back on one thread: a hop through the test pool between them could, on a loaded
        // machine, outlast the cool-down itself.
        let calls = await timedInTurn([
            { try store.connect() },
            { try store.connect() },
            { _ = try store.link(LinkID.random()) },
            { _ = try store.keep(program) },
        ])
        let first = calls[0]
        #expect(first.took >= deadline, "it waited for an answer until the deadline")
        #expect(first.took < deadline + .seconds(2), "and no longer")
        #expect(first.error?.description.contains("did not answer within") == true, "\(String(describing: first.error))")
        #expect(first.error?.description.contains("s3cret") == false)
        for cooling in calls.dropFirst() {
            #expect(cooling.error != nil && cooling.took < atOnce, "during the cool-down a call does not ask the database")
        }
        var probe: Timed<Link?>
        repeat {
            try await Task.sleep(for: .milliseconds(50))
            probe = await timed { try store.link(LinkID.random()) }
        } while probe.took < deadline && probe.started - first.ended < .seconds(30)
        #expect(probe.error != nil)
        #expect(probe.started - first.ended >= PostgresLinkStore.coolDown - .milliseconds(100), "asked again only after the cool-down")
        #expect(probe.took >= deadline && probe.took < deadline + .seconds(2), "the probe waited for its deadline: \(probe.took)")
    }

    /// PostgreSQL that stops answering on a connection already made (a proxy in front of it stops
    /// forwarding): a read throws by its deadline and the next at once; once it forwards again,
    /// the store answers after the cool-down, on a new connection.
    @Test func aConnectionThatStopsAnsweringFailsByTheDeadlineAndRecovers() async throws {
        try await withDatabase { url in
            let (proxy, throughProxy) = try PausableProxy.inFront(of: url)
            defer { proxy.stop() }
            let store = PostgresLinkStore(url: throughProxy)
            let kept = try store.keep(program).link
            #expect(try store.link(kept.id) == kept)
            proxy.pause()
            let calls = await timedInTurn([{ _ = try store.link(kept.id) }, { _ = try store.link(kept.id) }])
            let (stopped, cooling) = (calls[0], calls[1])
            #expect(stopped.took >= deadline && stopped.took < deadline + .seconds(2), "\(stopped.took)")
            #expect(stopped.error?.description.contains("did not answer within") == true, "\(String(describing: stopped.error))")
            #expect(cooling.error != nil && cooling.took < atOnce)
            proxy.resume()
            var answer = await timed { try store.link(kept.id) }
            while answer.error != nil, answer.started - cooling.started < .seconds(30) {
                try await Task.sleep(for: .milliseconds(50))
                answer = await timed { try store.link(kept.id) }
            }
            #expect(answer.value == kept, "the store answers again once PostgreSQL does: \(String(describing: answer.error))")
        }
    }

    /// A statement larger than the sockets' buffers, to a server that stopped reading, ends by the
    /// deadline too: what the socket does not take waits in libpq, not in a blocking send.
    @Test func aStatementTheServerDoesNotReadEndsByTheDeadline() async throws {
        let server = try #require(postgresServer)
        let (proxy, throughProxy) = try PausableProxy.inFront(of: server)
        defer { proxy.stop() }
        let connection = try PostgresConnection(url: throughProxy, by: PostgresDeadline(in: .seconds(60)))
        #expect(try connection.query("SELECT 1") == [["1"]])
        proxy.pause()
        let large = String(repeating: "x", count: 32 << 20)
        let deadline = deadline
        let sent = await timed {
            connection.deadline = PostgresDeadline(in: deadline)
            return try connection.query("SELECT length($1)", [large])
        }
        #expect(sent.error != nil && sent.took >= deadline && sent.took < deadline + .seconds(2), "\(sent.took)")
        #expect(!connection.isUsable, "a connection left mid-statement is not used again")
    }

    /// Runs `call` on a thread of its own, timed: a call that waits for its deadline holds none of
    /// the threads that the other tests run on.
    func timed<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async -> Timed<T> {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let started = ContinuousClock.now
                let result = Result(catching: call)
                continuation.resume(returning: Timed(result: result, started: started, ended: .now))
            }
        }
    }

    /// `calls` run one after the other on one thread of their own, each timed.
    func timedInTurn(_ calls: [@Sendable () throws -> Void]) async -> [Timed<Void>] {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    returning: calls.map { call in
                        let started = ContinuousClock.now
                        let result = Result(catching: call)
                        return Timed(result: result, started: started, ended: .now)
                    }
                )
            }
        }
    }

    /// The store's deadline for a call.
    let deadline = PostgresLinkStore.callDeadline
    /// Far above what a call that asks nothing takes, even under ThreadSanitizer on a loaded
    /// machine, and far below a deadline: the bound of a call that must not wait.
    let atOnce = Duration.milliseconds(500)
}

/// What a timed call answered or threw, when it started and when it ended.
struct Timed<T: Sendable>: Sendable {
    let result: Result<T, any Error>
    let started: ContinuousClock.Instant
    let ended: ContinuousClock.Instant

    var took: Duration { ended - started }
    var value: T? { try? result.get() }
    /// What it threw, if that was a ``StoreError`` (all the store throws).
    var error: StoreError? {
        guard case .failure(let error) = result else { return nil }
        return error as? StoreError
    }
}

/// The options the store adds to its URL (no server needed).
@Suite("Store: PostgreSQL's connection options")
struct PostgresLinkStoreOptionsTests {
    @Test func keepalivesAreAddedUnlessTheURLSetsThem() {
        #expect(
            PostgresLinkStore.withClientOptions("postgres://u@h/db")
                == "postgres://u@h/db?keepalives=1&keepalives_idle=10&keepalives_interval=5&keepalives_count=3&tcp_user_timeout=10000"
        )
        #expect(
            PostgresLinkStore.withClientOptions("postgres://u@h/db?sslmode=require&keepalives_idle=60&tcp_user_timeout=0")
                == "postgres://u@h/db?sslmode=require&keepalives_idle=60&tcp_user_timeout=0&keepalives=1&keepalives_interval=5&keepalives_count=3"
        )
    }
}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#else
private let streamSocket = SOCK_STREAM
private let noSignal: Int32 = 0
#endif

/// A socket call that failed, in a test's own plumbing.
private struct SocketError: Error {
    let call: String
    let code = errno
}

/// An IPv4 address, as the socket calls take it.
private func socketAddress(_ host: String, port: Int) throws -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(port).bigEndian
    guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else { throw SocketError(call: "inet_pton") }
    return address
}

/// Runs `body` with `address` as the `sockaddr` the socket calls take.
private func withSocketAddress<T>(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>, inout socklen_t) -> T) -> T {
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, &length) }
    }
}

/// A TCP socket listening on 127.0.0.1, on a port of the system's choosing; closed when it goes.
/// Never accepted from, it is a server that never answers: the kernel completes each handshake
/// into its backlog and no one reads, as with a stopped postmaster.
private final class Listener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw SocketError(call: "socket") }
        var address = try socketAddress("127.0.0.1", port: 0)
        let bound = withSocketAddress(&address) { pointer, length in
            bind(descriptor, pointer, length) == 0 && listen(descriptor, 64) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
        guard bound else {
            close(descriptor)
            throw SocketError(call: "bind")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A TCP proxy on 127.0.0.1 in front of the test's PostgreSQL, on a thread of its own, that can
/// be paused: then it accepts nothing and forwards nothing either way, as a server stopped with
/// SIGSTOP answers nothing while its kernel keeps the connections open.
private final class PausableProxy: Sendable {
    private let listener: Listener
    private let upstream: sockaddr_in
    private let isPaused = Atomic<Bool>(false)
    private let isStopped = Atomic<Bool>(false)
    /// Signalled by the proxy's thread when it has seen a pause: it forwards nothing after.
    private let pauseSeen = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// A proxy to the server of `url`, and `url` through it.
    static func inFront(of url: String) throws -> (PausableProxy, String) {
        var components = try #require(URLComponents(string: url))
        let proxy = try PausableProxy(to: try socketAddress(components.host ?? "127.0.0.1", port: components.port ?? 5432))
        components.host = "127.0.0.1"
        components.port = proxy.listener.port
        return (proxy, try #require(components.string))
    }

    private init(to upstream: sockaddr_in) throws {
        listener = try Listener()
        self.upstream = upstream
        Thread.detachNewThread { [self] in
            forward()
            ended.signal()
        }
    }

    /// Stops forwarding; returns once nothing more is forwarded.
    func pause() {
        isPaused.store(true, ordering: .sequentiallyConsistent)
        pauseSeen.wait()
    }

    func resume() {
        isPaused.store(false, ordering: .sequentiallyConsistent)
    }

    /// Ends the proxy's thread and closes its connections.
    func stop() {
        isStopped.store(true, ordering: .sequentiallyConsistent)
        ended.wait()
    }

    /// The proxy's thread: each client's bytes to its own connection upstream and back, until
    /// either end closes.
    private func forward() {
        var pairs: [(client: Int32, server: Int32)] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var sawPause = false
        while !isStopped.load(ordering: .sequentiallyConsistent) {
            if isPaused.load(ordering: .sequentiallyConsistent) {
                if !sawPause { pauseSeen.signal() }
                sawPause = true
                usleep(5_000)
                continue
            }
            sawPause = false
            var watched = [pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)]
            for pair in pairs { watched += [pair.client, pair.server].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            guard poll(&watched, nfds_t(watched.count), 20) > 0 else { continue }
            var open: [(client: Int32, server: Int32)] = []
            for (index, pair) in pairs.enumerated() {
                let fromClient = watched[1 + 2 * index].revents == 0 || relay(from: pair.client, to: pair.server, &buffer)
                let fromServer = watched[2 + 2 * index].revents == 0 || relay(from: pair.server, to: pair.client, &buffer)
                if fromClient && fromServer {
                    open.append(pair)
                } else {
                    close(pair.client)
                    close(pair.server)
                }
            }
            pairs = open
            if watched[0].revents != 0, let pair = accepted() { pairs.append(pair) }
        }
        for pair in pairs {
            close(pair.client)
            close(pair.server)
        }
    }

    /// A client accepted and its connection upstream, or nil.
    private func accepted() -> (client: Int32, server: Int32)? {
        let client = accept(listener.descriptor, nil, nil)
        guard client >= 0 else { return nil }
        let server = socket(AF_INET, streamSocket, 0)
        var address = upstream
        guard server >= 0, withSocketAddress(&address, { connect(server, $0, $1) }) == 0 else {
            close(client)
            if server >= 0 { close(server) }
            return nil
        }
        return (client, server)
    }

    /// Reads what `source` has and writes it all to `destination`; false when either is closed.
    private func relay(from source: Int32, to destination: Int32, _ buffer: inout [UInt8]) -> Bool {
        buffer.withUnsafeMutableBytes { bytes in
            let count = read(source, bytes.baseAddress, bytes.count)
            guard count > 0 else { return false }
            var sent = 0
            while sent < count {
                let written = send(destination, bytes.baseAddress! + sent, count - sent, noSignal)
                guard written > 0 else { return false }
                sent += written
            }
            return true
        }
    }
}
