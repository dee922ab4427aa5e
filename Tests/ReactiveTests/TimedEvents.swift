import Locking

@testable import Reactive

extension TestScheduler {
    /// A hot signal that sends each event at its virtual time in milliseconds (a marble diagram as
    /// data), however many subscribe.
    func hot<Value: Sendable, Failure: Error>(_ events: [(Int, Event<Value, Failure>)]) -> Signal<Value, Failure> {
        let subject = Subject<Value, Failure>()
        for (time, event) in events {
            schedule(after: .milliseconds(time)) { subject.send(event) }
        }
        return subject.signal
    }

    /// A cold signal that sends each event at its time after subscription.
    func cold<Value: Sendable, Failure: Error>(_ events: [(Int, Event<Value, Failure>)]) -> Signal<Value, Failure> {
        Signal { subscriber in
            let timers = CompoundDisposable()
            for (time, event) in events {
                timers.add(self.schedule(after: .milliseconds(time)) { subscriber.send(event) })
            }
            return timers
        }
    }
}

/// Records events with their virtual time in milliseconds.
final class TimedRecorder<Value: Sendable, Failure: Error>: Sendable {
    private let storage = Lock<[(Int, Event<Value, Failure>)]>([])
    private let scheduler: TestScheduler

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    var events: [(Int, Event<Value, Failure>)] { storage.withLock { $0 } }

    var subscriber: Subscriber<Value, Failure> {
        Subscriber { event in
            let time = Int(self.scheduler.now / .milliseconds(1))
            self.storage.withLock { $0.append((time, event)) }
        }
    }
}

extension TimedRecorder where Value: Equatable, Failure: Equatable {
    /// Whether the recorded events are exactly `expected`, times included.
    func matches(_ expected: [(Int, Event<Value, Failure>)]) -> Bool {
        let recorded = events
        return recorded.count == expected.count && zip(recorded, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
