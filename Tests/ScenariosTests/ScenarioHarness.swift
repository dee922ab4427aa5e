import Foundation
import Locking
import Reactive

@testable import Scenarios

/// Runs a scenario in virtual time and records every named stream's events with their time.
final class ScenarioHarness<S: Scenario>: Sendable {
    struct Record: Sendable, Equatable {
        let time: Int
        let stream: String
        let event: StreamEvent
    }

    let scheduler = TestScheduler()
    private let records = Lock<[Record]>([])
    /// Every report, subscriptions' starts and ends included, in order.
    private let reports = Lock<[(stream: String, report: StageReport)]>([])
    /// Signalled after each record, for events that other threads deliver.
    private let recorded = NSCondition()
    private let scenarioBox = Lock<S?>(nil)

    init(settings: ScenarioSettings = ScenarioSettings()) {
        let scheduler = self.scheduler
        let scenario = S(scheduler: scheduler, settings: settings) { [weak self] stream, report in
            let time = Int(scheduler.now / .milliseconds(1))
            guard let self else { return }
            reports.withLock { $0.append((stream, report)) }
            // The catalogue's streams; a source inside one (`results·search`) is in `allReports`.
            guard case .event(let event, _) = report, !stream.contains("·") else { return }
            records.withLock { $0.append(Record(time: time, stream: stream, event: event)) }
            recorded.lock()
            recorded.broadcast()
            recorded.unlock()
        }
        scenarioBox.withLock { $0 = scenario }
        scheduler.advance()
    }

    var scenario: S { scenarioBox.withLock { $0! } }

    /// Every report so far, subscriptions' starts and ends included.
    var allReports: [(stream: String, report: StageReport)] { reports.withLock { $0 } }

    /// Sends a value to an input, checked as the API checks it, then runs the work due now.
    func send(_ name: String, _ raw: RawInput) {
        switch S.description.value(for: name, from: raw) {
        case .success(let value): scenario.apply(.next(value), to: name)
        case .failure(let error): preconditionFailure("test sent an invalid value: \(error)")
        }
        scheduler.advance()
    }

    /// Completes an input (`?event=completed`), then runs the work due now.
    func complete(_ name: String) {
        scenario.apply(.completed, to: name)
        scheduler.advance()
    }

    /// Fails an input (`?event=error`), then runs the work due now.
    func fail(_ name: String, _ error: ErrorInfo) {
        scenario.apply(.error(error), to: name)
        scheduler.advance()
    }

    /// The streams that ended, in the order they ended, with how.
    var terminations: [(stream: String, event: StreamEvent)] {
        all.filter {
            if case .next = $0.event { false } else { true }
        }.map { ($0.stream, $0.event) }
    }

    func type(_ name: String, _ text: String) { send(name, .text(text)) }
    func press(_ name: String) { send(name, .text("")) }

    func advance(by milliseconds: Int) { scheduler.advance(by: .milliseconds(milliseconds)) }

    /// The values a stream sent, in order.
    func values(_ stream: String) -> [JSONValue] {
        records.withLock { $0 }.filter { $0.stream == stream }.compactMap {
            if case .next(let value) = $0.event { return value }
            return nil
        }
    }

    /// The latest value of a stream.
    func latest(_ stream: String) -> JSONValue? { values(stream).last }

    var all: [Record] { records.withLock { $0 } }

    /// Waits until `condition` holds for events delivered by other threads (real threads, not
    /// virtual time), for at most `timeout`; returns whether it holds.
    func wait(timeout: TimeInterval = 5, until condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        recorded.lock()
        defer { recorded.unlock() }
        while !condition() {
            if !recorded.wait(until: deadline) { return condition() }
        }
        return true
    }

    func clear() { records.withLock { $0 = [] } }
}
