import Reactive
import Testing

@Suite("ReplaySubject and CurrentValueSubject")
struct ReplaySubjectTests {
    /// RACReplaySubject: send first, then subscribe — the replay subject still delivers.
    @Test func lateSubscriberReceivesEverythingSent() {
        let subject = ReplaySubject<String, Never>()
        subject.sendNext("1")
        subject.sendNext("2")
        let recorder = Recorder<String, Never>()
        subject.signal.subscribe(recorder.subscriber)
        subject.sendNext("3")
        #expect(recorder.values == ["1", "2", "3"])
    }

    @Test func capacityLimitsTheReplay() {
        let subject = ReplaySubject<Int, Never>(capacity: 2)
        (1...5).forEach(subject.sendNext)
        let recorder = Recorder<Int, Never>()
        subject.signal.subscribe(recorder.subscriber)
        #expect(recorder.values == [4, 5])
        #expect(subject.replayedValues == [4, 5])
    }

    @Test func capacityOneReplaysTheLatest() {
        let subject = ReplaySubject<Int, Never>(capacity: 1)
        (1...3).forEach(subject.sendNext)
        let recorder = Recorder<Int, Never>()
        subject.signal.subscribe(recorder.subscriber)
        #expect(recorder.values == [3])
    }

    @Test func capacityZeroReplaysOnlyTheTerminalEvent() {
        let subject = ReplaySubject<Int, TestError>(capacity: 0)
        subject.sendNext(1)
        let early = Recorder<Int, TestError>()
        subject.signal.subscribe(early.subscriber)
        subject.sendNext(2)
        subject.sendError(TestError(code: 4))
        let late = Recorder<Int, TestError>()
        subject.signal.subscribe(late.subscriber)
        #expect(early.events == [.next(2), .error(TestError(code: 4))])
        #expect(late.events == [.error(TestError(code: 4))])
    }

    @Test func terminalEventIsReplayedAfterTheValues() {
        let subject = ReplaySubject<Int, Never>()
        subject.sendNext(1)
        subject.sendCompleted()
        subject.sendNext(2)  // ignored after completion
        let recorder = Recorder<Int, Never>()
        subject.signal.subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(1), .completed])
    }

    @Test func sendingDuringReplayKeepsOrder() {
        let subject = ReplaySubject<Int, Never>()
        subject.sendNext(1)
        subject.sendNext(2)
        let recorder = Recorder<Int, Never>()
        // The subscriber sends while its replay is still being delivered.
        subject.signal.subscribe(next: { value in
            recorder.record(.next(value))
            if value == 1 { subject.sendNext(3) }
        })
        #expect(recorder.values == [1, 2, 3])
    }

    @Test func currentValueSubjectStartsWithItsValue() {
        let subject = CurrentValueSubject<String, Never>("a")
        #expect(subject.value == "a")
        let recorder = Recorder<String, Never>()
        subject.signal.subscribe(recorder.subscriber)
        subject.sendNext("b")
        #expect(subject.value == "b")
        let late = Recorder<String, Never>()
        subject.signal.subscribe(late.subscriber)
        #expect(recorder.values == ["a", "b"])
        #expect(late.values == ["b"])
    }
}
