import Reactive

extension Marbles {
    /// One event of a stream and the frame it happened in: what a recorded stream is made of, and
    /// what an expected diagram reads as (RxJS's `TestMessage`). Two streams are the same when
    /// their lists are equal.
    public struct Recorded<Value: Sendable, Failure: Error>: Sendable {
        /// The frame: the virtual time the event happened at, divided by the frame's length.
        public let frame: Int
        /// What happened.
        public let event: Event<Value, Failure>

        /// Creates a recorded event.
        public init(frame: Int, event: Event<Value, Failure>) {
            self.frame = frame
            self.event = event
        }
    }
}

extension Marbles.Recorded: Equatable where Value: Equatable, Failure: Equatable {}

extension Marbles.Recorded: CustomStringConvertible {
    /// `next(a) @ 3`, for a failed expectation's message.
    public var description: String { "\(event) @ \(frame)" }
}
