import Locking
import Reactive
import Testing

@testable import Pipelines

/// A named stream is a cold signal, as in RAC: each stream that reads it subscribes to it again,
/// and its work runs once per subscription; `replayLazily()`, `replay()` and
/// `publish().autoconnect()` share one subscription; disposing a subscription cancels its work.
@Suite("Pipeline language: named streams are cold")
struct ColdStreamTests {
    /// A `request()` service that counts its subscriptions and disposals, answering "response N"
    /// after 100 ms and never completing (so that only a disposal ends it).
    final class Requests: Sendable {
        let made = Lock(0)
        let disposed = Lock(0)

        func service(on scheduler: any Scheduler) -> Service {
            Service(arity: 0, usage: "request()") { [self] _ throws(PipelineFailure) in
                Signal { subscriber in
                    let number = self.made.withLock { count in
                        count += 1
                        return count
                    }
                    let timer = scheduler.schedule(after: .milliseconds(100)) {
                        subscriber.sendNext(.string("response \(number)"))
                    }
                    return CompoundDisposable([timer, ActionDisposable { [self] in disposed.withLock { $0 += 1 } }].compactMap { $0 })
                }
            }
        }
    }

    func run(_ text: String, requests: Requests, until milliseconds: Int = 1_000) throws -> [(String, Event<Value, PipelineFailure>)] {
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let scheduler = TestScheduler()
        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let interpreter = try Interpreter(program: program, scheduler: scheduler, services: ["request": requests.service(on: scheduler)]) {
            stream,
            event in
            recorded.withLock { $0.append((stream, event)) }
        }
        scheduler.advance(by: .milliseconds(milliseconds))
        interpreter.stop()
        return recorded.withLock { $0 }
    }

    func values(_ recorded: [(String, Event<Value, PipelineFailure>)], of stream: String) -> [Value] {
        recorded.filter { $0.0 == stream }.compactMap(\.1.value)
    }

    @Test func twoReadersOfAStreamMakeTwoRequests() throws {
        let requests = Requests()
        let recorded = try run(
            """
            r = request()
            a = r.map { "A got " + $0 }
            b = r.map { "B got " + $0 }
            """,
            requests: requests
        )
        #expect(requests.made.withLock { $0 } == 2, "one request per subscription to r")
        #expect(values(recorded, of: "a") == ["A got response 1"])
        #expect(values(recorded, of: "b") == ["B got response 2"])
        #expect(values(recorded, of: "r") == ["response 1", "response 2"], "each subscription of r reported")
    }

    @Test(arguments: ["replayLazily()", "replay()", "replayLast()", "publish().autoconnect()"])
    func sharingMakesOneRequest(sharing: String) throws {
        let requests = Requests()
        let recorded = try run(
            """
            r = request().\(sharing)
            a = r.map { "A got " + $0 }
            b = r.map { "B got " + $0 }
            """,
            requests: requests
        )
        #expect(requests.made.withLock { $0 } == 1, "one upstream subscription")
        #expect(values(recorded, of: "a") == ["A got response 1"])
        #expect(values(recorded, of: "b") == ["B got response 1"])
    }

    @Test func takeOneDisposesItsSourceRightAfterTheFirstValue() throws {
        let requests = Requests()
        let recorded = try run("first = request().take(1)", requests: requests, until: 150)
        #expect(values(recorded, of: "first") == ["response 1"])
        #expect(recorded.last?.1 == .completed)
        #expect(requests.disposed.withLock { $0 } == 1, "the request was disposed before the program stopped")
    }

    @Test func aStreamThatNoOtherReadsIsSubscribedByTheSessionOnce() throws {
        let requests = Requests()
        let recorded = try run("r = request()\nunread = r.map { $0 }", requests: requests)
        #expect(requests.made.withLock { $0 } == 1)
        #expect(values(recorded, of: "unread") == ["response 1"])
    }

    @Test func aStreamReadTwiceByOneStreamIsSubscribedTwice() throws {
        let requests = Requests()
        let recorded = try run("r = request()\nboth = combineLatest(r, r)", requests: requests)
        #expect(requests.made.withLock { $0 } == 2)
        #expect(values(recorded, of: "both") == [["response 1", "response 2"]])
    }

    @Test func whenTheProgramStopsEverySubscriptionIsDisposed() throws {
        let requests = Requests()
        _ = try run("r = request()\na = r.map { $0 }\nb = r.map { $0 }", requests: requests, until: 50)
        #expect(requests.made.withLock { $0 } == 2)
        #expect(requests.disposed.withLock { $0 } == 2)
    }

    @Test func liveSubscriptionsAreCappedWithAClearError() throws {
        // Each line reads the one before twice: 2^14 subscriptions of `s0` at the bottom.
        var lines = ["input q: number", "s0 = q.map { $0 }"]
        for level in 1...14 { lines.append("s\(level) = combineLatest(s\(level - 1), s\(level - 1))") }
        let (program, _) = PipelineLanguage.parse(lines.joined(separator: "\n"))
        let recorded = Lock<[(String, Event<Value, PipelineFailure>)]>([])
        let limits = StepBudget.Limits(capacity: 1_000_000, perSecond: 1_000, subscriptions: 1_000)
        let interpreter = try Interpreter(program: program, scheduler: TestScheduler(), limits: limits) { stream, event in
            recorded.withLock { $0.append((stream, event)) }
        }
        defer { interpreter.stop() }
        let failures = recorded.withLock { $0 }.compactMap(\.1.failure?.code)
        #expect(failures.contains("too_many_subscriptions"))
        #expect(recorded.withLock { $0 }.last { $0.0 == "s14" }?.1.failure?.code == "too_many_subscriptions")
    }
    func warnings(_ text: String) -> [String] {
        PipelineLanguage.check(text).filter { $0.severity == .warning }.map(\.message)
    }

    @Test func aStreamWithWorkSubscribedTwiceWithoutSharingIsAWarning() {
        #expect(
            warnings("r = request()\na = r.map { $0 }\nb = r.map { $0 }") == [
                "`r` is subscribed 2 times (read by `a` and `b`): each subscription makes its own requests or timers, as RAC's cold signals do"
            ]
        )
        #expect(warnings("r = request().replayLazily()\na = r.map { $0 }\nb = r.map { $0 }").isEmpty)
        #expect(warnings("r = request().publish().autoconnect()\na = r\nb = r").isEmpty)
        // Through a stream without work of its own: `m` is read twice, so `r` is subscribed twice.
        #expect(warnings("r = interval(1s)\nm = r.map { $0 }\na = m\nb = m").map { $0.prefix(25) } == ["`r` is subscribed 2 times"])
        // Without work, reading twice is only a cost: no warning.
        #expect(warnings("input q: text\nv = q.map { $0 }\na = v\nb = v").isEmpty)
    }

    @Test func subscriptionsCountedThroughDeepFanOutsDoNotOverflow() {
        var lines = ["s0 = interval(1s)"]
        for level in 1...80 { lines.append("s\(level) = combineLatest(s\(level - 1), s\(level - 1))") }
        let found = warnings(lines.joined(separator: "\n"))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("`s0` is subscribed a million times or more") == true)
    }

    @Test func publishIsConnectedByAutoconnectAndNothingElse() {
        let errors = { (text: String) in PipelineLanguage.check(text).filter { $0.severity == .error }.map(\.message) }
        #expect(errors("input q: text\nx = q.publish()") == ["`publish()` is connected by `autoconnect()`"])
        #expect(errors("input q: text\nx = q.autoconnect()") == ["`autoconnect()` follows `publish()`"])
        #expect(errors("input q: text\nx = q.publish().map { $0 }") == ["`publish()` is connected by `autoconnect()`"])
        #expect(errors("input q: text\nx = q.publish().autoconnect().map { $0 }").isEmpty)
    }
    /// Runs `text` with a reporter: each report with the virtual time it came at.
    func reports(
        _ text: String,
        requests: Requests,
        until milliseconds: Int
    ) throws -> [(time: Int, stream: String, id: Int?, report: ReportWithoutID)] {
        let (program, _) = PipelineLanguage.parse(text)
        let scheduler = TestScheduler()
        let recorded = Lock<[(time: Int, stream: String, id: Int?, report: ReportWithoutID)]>([])
        let interpreter = try Interpreter(program: program, scheduler: scheduler, services: ["request": requests.service(on: scheduler)]) {
            stream,
            report in
            recorded.withLock { $0.append((Int(scheduler.now / .milliseconds(1)), stream, report.subscription, ReportWithoutID(report))) }
        }
        scheduler.advance(by: .milliseconds(milliseconds))
        interpreter.stop()
        return recorded.withLock { $0 }
    }

    @Test func eachSubscriptionIsReportedWithItsIdFromSubscribedToDisposed() throws {
        let recorded = try reports("r = request()\na = r.map { $0 }\nb = r.map { $0 }", requests: Requests(), until: 500)
        let ofR = recorded.filter { $0.stream == "r" }
        let ids = Set(ofR.compactMap(\.id))
        #expect(ids.count == 2, "two subscriptions of r")
        let responses = ids.sorted().map { id in ofR.filter { $0.id == id }.map(\.report) }
        #expect(
            responses == [
                [.subscribed, .event(.next(.string("response 1"))), .disposed],
                [.subscribed, .event(.next(.string("response 2"))), .disposed],
            ]
        )
        // A reader's subscription begins before the one it makes to what it reads.
        let firstA = try #require(recorded.firstIndex { $0.stream == "a" && $0.report == .subscribed })
        let firstR = try #require(recorded.firstIndex { $0.stream == "r" && $0.report == .subscribed })
        #expect(firstA < firstR)
        #expect(Set(recorded.compactMap(\.id)).count == 4, "ids are unique in the program")
    }

    @Test func takeOneDisposesTheSubscriptionItReadsRightAfterTheFirstValue() throws {
        let recorded = try reports("r = request()\nfirst = r.take(1)", requests: Requests(), until: 1_000)
        let ofR = recorded.filter { $0.stream == "r" }
        #expect(ofR.map(\.report) == [.subscribed, .event(.next(.string("response 1"))), .disposed])
        #expect(ofR.last?.time == 100, "disposed when the value came, not when the program stopped")
    }
    @Test func aNewerQueryDisposesTheOlderRequestBeforeItsAnswer() throws {
        let requests = Requests()
        let (program, _) = PipelineLanguage.parse("input q: text\nresults = q.flatMap(.latest) { _ in request() }")
        let scheduler = TestScheduler()
        let recorded = Lock<[(time: Int, id: Int?, report: ReportWithoutID)]>([])
        let interpreter = try Interpreter(program: program, scheduler: scheduler, services: ["request": requests.service(on: scheduler)]) {
            stream,
            report in
            guard stream == "results·request" else { return }
            recorded.withLock { $0.append((Int(scheduler.now / .milliseconds(1)), report.subscription, ReportWithoutID(report))) }
        }
        interpreter.send(.next(.string("swe")), to: "q")
        scheduler.schedule(after: .milliseconds(50)) { interpreter.send(.next(.string("swedish")), to: "q") }
        scheduler.advance(by: .milliseconds(500))
        let reports = recorded.withLock { $0 }
        let ids = Array(Set(reports.compactMap(\.id))).sorted()
        #expect(ids.count == 2, "one subscription per request")
        let older = reports.filter { $0.id == ids[0] }
        #expect(older.map(\.report) == [.subscribed, .disposed], "cancelled: no answer")
        #expect(older.last?.time == 50, "disposed when the newer query came")
        let newer = reports.filter { $0.id == ids[1] }
        #expect(newer.map(\.report) == [.subscribed], "answered: its value is the results' (a request never completes)")
        #expect(newer.first?.time == 50)
        interpreter.stop()
        #expect(recorded.withLock { $0 }.last?.report == .disposed, "and the newer one when the program stops")
    }

    /// The inner signals of every flattening are subscriptions, not only the ones with work: a
    /// `just` made per value, `catch`'s replacement, `then`'s continuation.
    @Test(arguments: [
        ("x = from([1, 2]).flatMap(.merge) { just($0) }", "x·just", 2),
        ("x = failure(\"no\").catch { _ in just(0) }", "x·just", 1),
        ("x = from([1, 2]).then { just(3) }", "x·just", 1),
        ("x = merge(just(1), just(2))", "x·just", 2),
    ])
    func everyInnerSignalIsASubscriptionOfItsOwn(program: String, inner: String, count: Int) throws {
        let recorded = try reports(program, requests: Requests(), until: 100)
        let ofInner = recorded.filter { $0.stream == inner }
        let ids = Set(ofInner.compactMap(\.id))
        #expect(ids.count == count, "\(program): \(ofInner.map(\.report))")
        for id in ids {
            // Its start, how it ended (not its value: the stream carries it), its end.
            #expect(ofInner.filter { $0.id == id }.map(\.report) == [.subscribed, .event(.completed), .disposed], "\(program)")
        }
        // A stream that is one source is that source: not reported apart.
        #expect(try reports("x = just(1)", requests: Requests(), until: 100).allSatisfy { $0.stream == "x" })
    }

    /// Building a program names the sources each stream reports inside it, for its catalogue
    /// entry: a stream that is one source has none (its subscriptions are its own).
    @Test func examiningAProgramNamesTheSourcesInsideEachStream() throws {
        let text = "input q: text\nr = request()\ns = request().replayLazily()\nx = q.flatMap(.latest) { just($0).concat(with: empty) }\n"
        let (program, diagnostics) = PipelineLanguage.parse(text)
        #expect(diagnostics.isEmpty)
        let request = Service(arity: 0, usage: "request()") { _ throws(PipelineFailure) in .just(.string("response")) }
        let examined = Interpreter.examine(program, services: ["request": request])
        #expect(examined.diagnostics.isEmpty)
        #expect(examined.sources["r"] == nil)
        #expect(examined.sources["s"] == ["s·request"])
        #expect(examined.sources["x"] == ["x·just", "x·empty"])
    }
}
