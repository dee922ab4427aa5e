import Dispatch
import Locking
import Reactive
import Testing

@Suite("Inspection: the objects a subscription builds, as they change")
struct InspectionTests {
    /// A subject's subscription through `map` and `filter`: three subscribers, each holding the
    /// one it subscribed upstream; the last joins the subject. Disposing the first disposes all
    /// three, and the subject lets go of its member.
    @Test func aChainOfOperatorsIsAChainOfSubscribers() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let subject = Subject<Int, Never>()
            let subscription = subject.signal.map { $0 * 2 }.filter { $0 > 2 }.subscribe(next: { _ in })
            subject.sendNext(1)
            subscription.dispose()
        }
        #expect(
            log.lines == [
                "created C1 RACCompoundDisposable",  // the subject's feeds
                "created Subject1 RACSubject",
                "Subject1 holds C1",
                "created S1 RACPassthroughSubscriber",  // subscribe(next:)'s
                "created S2 RACPassthroughSubscriber",  // filter's, upstream
                "S1 holds S2",
                "created S3 RACPassthroughSubscriber",  // map's, upstream
                "S2 holds S3",
                "Subject1 holds S3",
                "disposed S1",
                "disposed S2",
                "disposed S3",
                "Subject1 lets go of S3",
            ]
        )
    }

    /// `take(1)` ends its subscription after the first value: its upstream subscriber is disposed
    /// with it, and the subject lets it go.
    @Test func takeDisposesItsUpstreamAfterItsCount() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let subject = Subject<Int, Never>()
            subject.signal.take(1).subscribe(next: { _ in })
            subject.sendNext(1)
            subject.sendNext(2)
        }
        let afterSubscribing = log.lines.drop { $0 != "Subject1 holds S2" }.dropFirst()
        #expect(Array(afterSubscribing) == ["disposed S1", "disposed S2", "Subject1 lets go of S2"])
    }

    /// A merge's inner subscription that ends is freed: its serial disposable lets go of the
    /// subscriber whose closure holds the serial disposable, a cycle that leaked every finished
    /// inner subscription before (found by the Inside view: lesson 8's slot stayed alive).
    @Test func aFinishedInnerSubscriptionOfAMergeIsFreed() {
        let log = InspectionLog(includesReleases: true)
        Inspection.run(reportingTo: log) {
            let outer = Subject<Int, Never>()
            let inner = Subject<Int, Never>()
            let subscription = outer.signal.flatMap(.merge) { _ in inner.signal }.subscribe(next: { _ in })
            outer.sendNext(1)
            inner.sendCompleted()
            #expect(log.lines.contains("released SD1"), "\(log.lines)")
            subscription.dispose()
        }
    }

    /// Of a subject's two subscribers, the one disposed leaves its list; the other stays.
    @Test func aSubjectLetsGoOfTheSubscriberThatDisposes() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let subject = Subject<Int, Never>()
            let first = subject.signal.subscribe(next: { _ in })
            subject.signal.subscribe(next: { _ in })
            first.dispose()
            subject.sendCompleted()
        }
        #expect(
            log.lines.dropFirst(3) == [
                "created S1 RACPassthroughSubscriber",
                "Subject1 holds S1",
                "created S2 RACPassthroughSubscriber",
                "Subject1 holds S2",
                "disposed S1",
                "Subject1 lets go of S1",
                "disposed Subject1",  // it ended: its subscribers get the event, then its feeds go
                "disposed S2",
                "Subject1 lets go of S2",
                "disposed C1",
            ]
        )
    }

    /// `switchToLatest` holds its latest inner subscription and swaps it: the previous one is let
    /// go and disposed before the next inner signal is subscribed.
    @Test func switchToLatestSwapsItsInnerSubscription() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let outer = Subject<Signal<Int, Never>, Never>()
            let first = Subject<Int, Never>()
            let second = Subject<Int, Never>()
            let subscription = outer.signal.switchToLatest().subscribe(next: { _ in })
            outer.sendNext(first.signal)
            outer.sendNext(second.signal)
            subscription.dispose()
        }
        let lines = log.lines.drop { !$0.hasPrefix("created SD1") }
        #expect(
            Array(lines) == [
                "created SD1 RACSerialDisposable",  // the switch's state
                "created D1 RACDisposable",  // what ends it
                "D1 holds SD1",
                "created S1 RACPassthroughSubscriber",  // subscribe(next:)'s, seen as it holds D1
                "S1 holds D1",
                "created S2 RACPassthroughSubscriber",  // the outer subscription
                "S1 holds S2",
                "Subject1 holds S2",
                "created S3 RACPassthroughSubscriber",  // the first inner subscription
                "SD1 swaps nil for S3",
                "Subject2 holds S3",
                "created S4 RACPassthroughSubscriber",  // the second
                "SD1 swaps S3 for S4",
                "disposed S3",
                "Subject2 lets go of S3",
                "Subject3 holds S4",
                "disposed S1",
                "disposed D1",
                "SD1 swaps S4 for nil",
                "disposed SD1",
                "disposed S4",
                "Subject3 lets go of S4",
                "disposed S2",
                "Subject1 lets go of S2",
            ]
        )
    }

    /// An inner signal that completes is let go of by the switch without a successor.
    @Test func switchToLatestLetsGoOfAnInnerSignalThatCompletes() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let outer = Subject<Signal<Int, Never>, Never>()
            outer.signal.switchToLatest().subscribe(next: { _ in })
            outer.sendNext(Signal.from([1, 2]))
        }
        #expect(
            log.lines(containing: "S3") == ["created S3 RACPassthroughSubscriber", "SD1 swaps nil for S3", "disposed S3", "SD1 swaps S3 for nil"]
        )
    }

    /// The disposables themselves: a compound's children come and go, a serial disposable swaps
    /// (RAC's `swapInDisposable:`) or replaces and disposes, a scoped one holds its inner.
    @Test func disposablesReportWhatTheyHold() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let first = ActionDisposable()
            let second = ActionDisposable()
            let compound = CompoundDisposable([first])
            compound.add(second)
            compound.remove(first)
            let serial = SerialDisposable()
            serial.swap(in: first)
            serial.inner = second
            let scoped = serial.scoped()
            scoped.dispose()
            compound.dispose()
            compound.dispose()  // once only
        }
        #expect(
            log.lines == [
                "created D1 RACDisposable",
                "created D2 RACDisposable",
                "created C1 RACCompoundDisposable",
                "C1 holds D1",
                "C1 holds D2",
                "C1 lets go of D1",
                "created SD1 RACSerialDisposable",
                "SD1 swaps nil for D1",
                "SD1 swaps D1 for D2",
                "disposed D1",  // `inner =` disposes what it replaces
                "created SC1 RACScopedDisposable",
                "SC1 holds SD1",
                "disposed SD1",
                "disposed D2",
                "disposed C1",  // D2 was disposed already: nothing more
            ]
        )
    }

    /// A multicast connection holds its subject and the serial disposable of its one source
    /// subscription, which `connect()` fills once.
    @Test func aMulticastConnectionHoldsItsSubjectAndOneSubscription() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let source = Subject<Int, Never>()
            let connection = source.signal.multicast(Subject())
            connection.signal.subscribe(next: { _ in })
            connection.signal.subscribe(next: { _ in })
            connection.connect()
            connection.connect()
        }
        let lines = log.lines
        #expect(lines.contains("created Connection1 RACMulticastConnection"))
        #expect(lines.contains("Connection1 holds Subject2"))
        #expect(lines.contains("Connection1 holds SD1"))
        #expect(lines.filter { $0.hasPrefix("Subject1 holds S") } == ["Subject1 holds S3"])  // one source subscription
        #expect(lines.contains("SD1 swaps nil for S3"))
    }

    /// A channel's terminals each hold the replay subject they hear and the one they speak into.
    @Test func aChannelsTerminalsHoldItsTwoReplaySubjects() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) { _ = Channel<Int, Never>() }
        #expect(
            log.lines(containing: "Terminal") == [
                "created Terminal1 RACChannelTerminal", "Terminal1 holds Replay1", "Terminal1 holds Replay2",
                "created Terminal2 RACChannelTerminal", "Terminal2 holds Replay2", "Terminal2 holds Replay1",
            ]
        )
    }

    /// An object freed is reported as released, so that an address used again names a new object:
    /// `flatMap(.merge)`'s slot of an inner signal that completed is let go of undisposed, and freed.
    @Test func freedObjectsAreReleased() {
        let log = InspectionLog(includesReleases: true)
        Inspection.run(reportingTo: log) {
            _ = ActionDisposable()
            _ = ActionDisposable()
            Signal.from([1]).flatMap(.merge) { Signal<Int, Never>.just($0 * 2) }.subscribe(next: { _ in })
        }
        #expect(Array(log.lines.prefix(4)) == ["created D1 RACDisposable", "released D1", "created D2 RACDisposable", "released D2"])
        #expect(log.lines.filter { $0.hasPrefix("released") }.count == log.lines.filter { $0.hasPrefix("created") }.count)
    }

    /// A replay subject reports its buffer's size as values enter and the oldest leave.
    @Test func aReplaySubjectReportsItsBuffer() {
        let log = InspectionLog()
        Inspection.run(reportingTo: log) {
            let subject = ReplaySubject<Int, Never>(capacity: 2)
            for value in 1...3 { subject.sendNext(value) }
        }
        #expect(log.lines(containing: "buffers") == ["Replay1 buffers 1", "Replay1 buffers 2", "Replay1 buffers 2"])
    }

    /// Nothing is reported outside `run`, and a nested `run` gives the thread back its inspector.
    @Test func inspectionBelongsToTheRunAndNests() {
        let outer = InspectionLog()
        let inner = InspectionLog()
        _ = ActionDisposable()
        #expect(Inspection.currentInspector == nil)
        Inspection.run(reportingTo: outer) {
            Inspection.run(reportingTo: inner) { _ = CompoundDisposable() }
            #expect(Inspection.currentInspector === outer)
            _ = ActionDisposable()
        }
        #expect(Inspection.currentInspector == nil)
        #expect(outer.lines == ["created D1 RACDisposable"])
        #expect(inner.lines == ["created C1 RACCompoundDisposable"])
    }

    /// What an inspector itself builds of Reactive's objects is not reported to it (nor does it
    /// recurse).
    @Test func anInspectorsOwnObjectsAreNotInspected() {
        final class Building: Inspector {
            let log = InspectionLog()
            func record(_ event: InspectionEvent) {
                _ = Subject<Int, Never>()
                log.record(event)
            }
        }
        let building = Building()
        Inspection.run(reportingTo: building) { _ = ActionDisposable() }
        #expect(building.log.lines == ["created D1 RACDisposable"])
    }

    /// Work scheduled while inspecting runs under the same inspector, on the scheduler's thread;
    /// work sent to a Dispatch queue directly does not.
    @Test func scheduledWorkCarriesItsInspector() {
        let log = InspectionLog()
        let scheduler = QueueScheduler(label: "inspection-test")
        let done = DispatchSemaphore(value: 0)
        let direct = DispatchQueue(label: "inspection-test-direct")
        Inspection.run(reportingTo: log) {
            scheduler.schedule {
                _ = CompoundDisposable()
                done.signal()
            }
            direct.async {
                _ = SerialDisposable()
                done.signal()
            }
        }
        done.wait()
        done.wait()
        #expect(log.lines(containing: "created C").count == 1)
        #expect(log.lines(containing: "RACSerialDisposable").isEmpty)
    }

    /// On a virtual clock, a delayed value's inner subscription is inspected when it happens.
    @Test func aTestSchedulersWorkIsInspectedWhenItRuns() {
        let log = InspectionLog()
        let scheduler = TestScheduler()
        Inspection.run(reportingTo: log) {
            Signal<Int, Never>.just(1).delay(.seconds(1), on: scheduler).subscribe(next: { _ in })
        }
        #expect(!log.lines.contains("disposed S1"))
        scheduler.advance(by: .seconds(1))
        #expect(log.lines.contains("disposed S1"))
    }

    /// Threads inspecting at once each see exactly their own objects (run under ThreadSanitizer
    /// too): the same program gives every thread the same lines.
    @Test func threadsInspectTheirOwnWork() async {
        let logs = (0..<4).map { _ in InspectionLog() }
        await withTaskGroup(of: Void.self) { group in
            for log in logs {
                group.addTask {
                    Inspection.run(reportingTo: log) {
                        for _ in 0..<50 {
                            let subject = Subject<Int, Never>()
                            let subscription = subject.signal.map { $0 + 1 }.subscribe(next: { _ in })
                            subject.sendNext(1)
                            subscription.dispose()
                        }
                    }
                }
            }
        }
        let expected = logs[0].lines
        #expect(expected.count == 50 * 10)
        for log in logs.dropFirst() { #expect(log.lines == expected) }
    }
}
