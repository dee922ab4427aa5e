import Foundation
import Locking
import Testing

@testable import Reactive

@Suite("Bridges: async/await, callbacks, files, notifications, first")
struct BridgeTests {
    @Test func forAwaitReceivesValuesAndBreakingOutDisposes() async throws {
        let subject = Subject<Int, Never>()
        let signal = Signal<Int, Never> { subscriber in
            subject.signal.subscribe(subscriber.forwarder)
        }
        var received: [Int] = []
        let sender = Task {
            while subject.subscriberCount == 0 { await Task.yield() }
            for value in 1...100 { subject.sendNext(value) }
        }
        for try await value in signal.values {
            received.append(value)
            if value == 3 { break }
        }
        await sender.value
        #expect(received == [1, 2, 3])
        while subject.subscriberCount > 0 { await Task.yield() }
        #expect(subject.subscriberCount == 0, "breaking out disposed the subscription")
    }

    @Test func valuesThrowTheSignalsError() async {
        do {
            for try await _ in Signal<Int, TestError>.failure(TestError(code: 4)).values {}
            Issue.record("expected an error")
        } catch {
            #expect(error as? TestError == TestError(code: 4))
        }
        var collected: [Int] = []
        for await value in Signal<Int, Never>.from([1, 2]).stream { collected.append(value) }
        #expect(collected == [1, 2])
    }

    @Test func signalFromAsyncSequence() async throws {
        let stream = AsyncStream<Int> { continuation in
            for number in (1...3) { continuation.yield(number) }
            continuation.finish()
        }
        let values = try await collect(Signal<Int, Never>.from(stream))
        #expect(values == [1, 2, 3])
    }

    @Test func disposingAnAsyncClosureSignalCancelsItsTask() async throws {
        let cancelled = Lock(false)
        let started = Lock(false)
        let subscription = Signal<Int, Never>.async {
            started.withLock { $0 = true }
            await withTaskCancellationHandler {
                while !Task.isCancelled { await Task.yield() }
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
            return 1
        }.subscribe()
        while !started.withLock({ $0 }) { await Task.yield() }
        subscription.dispose()
        while !cancelled.withLock({ $0 }) { await Task.yield() }
        #expect(cancelled.withLock { $0 })
        let answer = try await collect(Signal<Int, Never>.async { 42 })
        #expect(answer == [42])
    }

    @Test func callbackBridgeAndFileRead() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reactive-\(UUID().uuidString).txt").path
        try "hello, signals".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try await collect(Signal.contentsOfFile(atPath: path))
        #expect(bytes.count == 1)
        #expect(String(decoding: bytes[0], as: UTF8.self) == "hello, signals")

        do {
            _ = try await collect(Signal.contentsOfFile(atPath: path + ".missing"))
            Issue.record("expected ENOENT")
        } catch {
            #expect(error as? FileReadError == FileReadError(code: ENOENT))
        }
    }

    @Test func notificationsStopAfterDisposal() {
        let center = NotificationCenter()
        let name = Notification.Name("reactive.test")
        let recorder = Recorder<Notification.Name, Never>()
        let subscription = Signal.notifications(named: name, center: center).subscribe(recorder.subscriber)
        center.post(name: name, object: nil)
        subscription.dispose()
        center.post(name: name, object: nil)
        #expect(recorder.values == [name])
    }

    @Test func firstBlocksUntilAValueOrTheTimeout() {
        let queue = QueueScheduler(label: "test.first")
        let value = try? Signal<Int, Never>.just(7).delay(.milliseconds(5), on: queue).first(timeout: .seconds(5))
        #expect(value == 7)
        #expect(throws: FirstError<Never>.timedOut) { try Signal<Int, Never>.never.first(timeout: .milliseconds(20)) }
        #expect(throws: FirstError<Never>.empty) { try Signal<Int, Never>.empty.first(timeout: .seconds(1)) }
        #expect(throws: FirstError<TestError>.failed(TestError(code: 1))) {
            try Signal<Int, TestError>.failure(TestError(code: 1)).first(timeout: .seconds(1))
        }
    }

    private func collect<V: Sendable, F: Error>(_ signal: Signal<V, F>) async throws -> [V] {
        var values: [V] = []
        for try await value in signal.values { values.append(value) }
        return values
    }
}
