import Locking
import Testing

@testable import Reactive

@Suite("Command (RACCommand)")
struct CommandTests {
    /// RACCommand's classic example: `[[command.executing skip:1] subscribeNext:]` prints YES then NO, and the
    /// execution's value arrives through `executionSignals` switched to latest.
    @Test func classicExampleExecutingAndExecutionSignals() {
        let scheduler = TestScheduler()
        let command = Command<String, String, Never> { input in
            scheduler.cold([(100, .next("done \(input)")), (100, .completed)])
        }
        let executing = Recorder<Bool, Never>()
        command.executing.skip(1).subscribe(executing.subscriber)
        let values = Recorder<String, Never>()
        command.executionSignals.switchToLatest().subscribe(values.subscriber)
        command.execute("1")
        #expect(executing.values == [true])
        scheduler.run()
        #expect(executing.values == [true, false])
        #expect(values.values == ["done 1"])
    }

    @Test func executeStartsAtOnceWithoutSubscribersAndReplays() {
        let runs = Lock(0)
        let command = Command<Int, Int, Never> { input in
            runs.withLock { $0 += 1 }
            return .just(input * 2)
        }
        let execution = command.execute(21)
        #expect(runs.withLock { $0 } == 1)
        let recorder = Recorder<Int, CommandError<Never>>()
        execution.subscribe(recorder.subscriber)
        #expect(recorder.events == [.next(42), .completed])
    }

    @Test func disabledCommandStartsNothingAndFailsWithNotEnabled() {
        let enabled = CurrentValueSubject<Bool, Never>(false)
        let runs = Lock(0)
        let command = Command<Void, Void, TestError>(enabled: enabled.signal) { _ in
            runs.withLock { $0 += 1 }
            return .just(())
        }
        let errors = Recorder<TestError, Never>()
        command.errors.subscribe(errors.subscriber)
        let enabledValues = Recorder<Bool, Never>()
        command.enabled.subscribe(enabledValues.subscriber)
        let result = Recorder<Void, CommandError<TestError>>()
        command.execute(()).subscribe(result.subscriber)
        #expect(runs.withLock { $0 } == 0, "the closure is never called")
        if case .error(.notEnabled) = result.events.first {} else { Issue.record("expected notEnabled, got \(result.events)") }
        #expect(errors.values.isEmpty, "notEnabled is not sent on errors")
        enabled.sendNext(true)
        #expect(enabledValues.values == [false, true])
        #expect(command.isEnabled)
    }

    @Test func withoutConcurrencyEnabledIsOffWhileExecuting() {
        let scheduler = TestScheduler()
        let command = Command<Int, Int, Never> { input in scheduler.cold([(100, .next(input)), (100, .completed)]) }
        let enabled = Recorder<Bool, Never>()
        command.enabled.subscribe(enabled.subscriber)
        command.execute(1)
        let second = Recorder<Int, CommandError<Never>>()
        command.execute(2).subscribe(second.subscriber)
        if case .error(.notEnabled) = second.events.first {} else { Issue.record("a second execution must not start") }
        scheduler.run()
        #expect(enabled.values == [true, false, true])
    }

    @Test func withConcurrencyExecutionsOverlapAndEnabledStaysOn() {
        let scheduler = TestScheduler()
        let command = Command<Int, Int, Never>(allowsConcurrentExecution: true) { input in
            scheduler.cold([(input, .next(input)), (input, .completed)])
        }
        let enabled = Recorder<Bool, Never>()
        let executing = Recorder<Bool, Never>()
        command.enabled.subscribe(enabled.subscriber)
        command.executing.subscribe(executing.subscriber)
        let values = Recorder<Int, Never>()
        command.executionSignals.flattenMap { $0 }.subscribe(values.subscriber)
        command.execute(100)
        command.execute(50)
        scheduler.advance(by: .milliseconds(60))
        #expect(command.isExecuting, "one execution still runs")
        scheduler.run()
        #expect(values.values == [50, 100])
        #expect(enabled.values == [true])
        #expect(executing.values == [false, true, false])
    }

    @Test func switchingConcurrencyOnReEnables() {
        let scheduler = TestScheduler()
        let command = Command<Int, Int, Never> { _ in scheduler.cold([(100, Event<Int, Never>.completed)]) }
        command.execute(1)
        #expect(!command.isEnabled)
        command.allowsConcurrentExecution = true
        #expect(command.isEnabled)
        #expect(command.allowsConcurrentExecution)
    }

    @Test func errorsReachSubscribersOfExecutionsThatStartedEarlier() {
        let scheduler = TestScheduler()
        let command = Command<Int, Int, TestError> { code in scheduler.cold([(100, .error(TestError(code: code)))]) }
        let result = Recorder<Int, CommandError<TestError>>()
        command.execute(5).subscribe(result.subscriber)
        let errors = Recorder<TestError, Never>()
        command.errors.subscribe(errors.subscriber)  // after the execution started
        let signals = Recorder<Int, Never>()
        command.executionSignals.flattenMap { $0 }.subscribe(signals.subscriber)
        scheduler.run()
        #expect(errors.values == [TestError(code: 5)])
        #expect(result.events == [.error(.failed(TestError(code: 5)))])
        #expect(command.isEnabled && !command.isExecuting)
    }

    /// RACCommand completes its signals when it is released, as `MutableProperty` does.
    @Test func releasingTheCommandCompletesItsSignals() {
        let completed = Lock<[String]>([])
        var subscriptions: [any Disposable] = []
        do {
            let command = Command<Int, Int, Never> { .just($0) }
            func record(_ name: String) -> @Sendable () -> Void { { completed.withLock { $0.append(name) } } }
            subscriptions.append(command.executing.subscribe(completed: record("executing")))
            subscriptions.append(command.enabled.subscribe(completed: record("enabled")))
            subscriptions.append(command.executionSignals.subscribe(completed: record("executionSignals")))
            subscriptions.append(command.errors.subscribe(completed: record("errors")))
            command.execute(1)
            #expect(completed.withLock { $0 }.isEmpty)
        }
        #expect(Set(completed.withLock { $0 }) == ["executing", "enabled", "executionSignals", "errors"])
        for subscription in subscriptions { subscription.dispose() }
    }
}

@Suite("Command: allowsConcurrentExecution is observable")
struct CommandAllowsConcurrentExecutionTests {
    @Test func itsChangesAreASignalWithTheCurrentValueFirstAndNoRepeats() {
        let command = Command<Int, Int, Never>(allowsConcurrentExecution: false) { .just($0) }
        let changes = Recorder<Bool, Never>()
        command.allowsConcurrentExecutionChanges.subscribe(changes.subscriber)
        command.allowsConcurrentExecution = true
        command.allowsConcurrentExecution = true
        command.allowsConcurrentExecution = false
        #expect(changes.values == [false, true, false])
    }

    @Test func releasingTheCommandCompletesIt() {
        let changes = Recorder<Bool, Never>()
        do {
            let command = Command<Int, Int, Never>(allowsConcurrentExecution: true) { .just($0) }
            command.allowsConcurrentExecutionChanges.subscribe(changes.subscriber)
        }
        #expect(changes.events == [.next(true), .completed])
    }
}
