import Locking
import Reactive

/// Records the events a subscriber receives, for assertions.
final class Recorder<Value: Sendable, Failure: Error>: Sendable {
    private let storage = Lock<[Event<Value, Failure>]>([])

    var events: [Event<Value, Failure>] { storage.withLock { $0 } }
    var values: [Value] { events.compactMap(\.value) }

    func record(_ event: Event<Value, Failure>) {
        storage.withLock { $0.append(event) }
    }

    /// A subscriber that records into this recorder.
    var subscriber: Subscriber<Value, Failure> { Subscriber { self.record($0) } }
}

struct TestError: Error, Equatable {
    let code: Int
}
