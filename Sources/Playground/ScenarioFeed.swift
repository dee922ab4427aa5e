import Foundation
import MicroHTTP
import Reactive
import Scenarios
import Synchronization

/// Runs one scenario instance for one event stream, numbering its events and writing them in the
/// SSE format of DESIGN.md §3:
///
///     id: 17
///     event: count
///     data: {"stream":"count","kind":"next","value":3,"seq":17,"t":1532.4}
final class ScenarioFeed: Sendable {
    private let stream: EventStream
    private let scheduler: any Scheduler
    private let origin: Duration
    private let sequence = Atomic<Int>(0)

    private init(stream: EventStream, scheduler: any Scheduler) {
        self.stream = stream
        self.scheduler = scheduler
        origin = scheduler.now
    }

    /// Starts `scenario` on its own scheduler; its subscription ends when the stream does.
    static func start(_ scenario: any Scenario.Type, settings: ScenarioSettings, on stream: EventStream) {
        let scheduler = QueueScheduler(label: "playground.scenario.\(scenario.description.id)")
        let feed = ScenarioFeed(stream: stream, scheduler: scheduler)
        let instance = scenario.init(scheduler: scheduler, settings: settings)
        let subscription = instance.start { name, event in feed.send(name, event) }
        stream.onTermination { subscription.dispose() }
    }

    private func send(_ name: String, _ event: StreamEvent) {
        let seq = sequence.add(1, ordering: .relaxed).newValue
        let elapsed = scheduler.now - origin
        let milliseconds = (Double(elapsed / .microseconds(100))).rounded() / 10
        // Hand-assembled so the fields keep the documented order; names come from the catalogue
        // (plain identifiers) and the value is encoded by JSONEncoder.
        var data = #"{"stream":"\#(name)","kind":"\#(event.kind)""#
        if let payload = event.payload {
            guard let encoded = try? Self.encoder.encode(payload) else { return }
            data += #","value":"# + String(decoding: encoded, as: UTF8.self)
        }
        data += #","seq":\#(seq),"t":\#(milliseconds)}"#
        stream.send(data: data, event: name, id: String(seq))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
}

private extension StreamEvent {
    /// The `value` field: the value of `next`, `{"code","message"}` for `error`, nothing for `completed`.
    var payload: JSONValue? {
        switch self {
        case .next(let value): value
        case .error(let code, let message): .object(["code": .string(code), "message": .string(message)])
        case .completed: nil
        }
    }
}
