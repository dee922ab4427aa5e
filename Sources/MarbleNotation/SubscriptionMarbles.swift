/// Subscription marbles, as RxJS's marble tests write them: one diagram per subscription, `^`
/// in the frame it began and `!` in the frame it ended (`^---!`: subscribed at frame 0, disposed
/// at frame 4), both in one frame written `(^!)`; a subscription still live has no `!`.
extension Marbles {
    /// One subscription's span, in frames.
    public struct Subscription: Equatable, Sendable {
        /// The frame it began in.
        public let subscribed: Int
        /// The frame it ended in (disposed, or after its terminal event); `nil` while live.
        public let disposed: Int?

        /// Creates a span. Frames before 0 are taken as 0, and a `disposed` before `subscribed` as
        /// `subscribed`, so that a span is always drawable (a server draws them from clocks).
        public init(subscribed: Int, disposed: Int?) {
            self.subscribed = max(0, subscribed)
            self.disposed = disposed.map { max($0, max(0, subscribed)) }
        }
    }

    /// Why a subscription diagram could not be read. Offsets count characters from its start.
    public enum SubscriptionParseError: Error, Equatable {
        /// No `^`.
        case noSubscription
        /// A character other than `-`, `^`, `!`, `(`, `)` or a space, or a `^`, `!` or parenthesis
        /// out of place, at this offset.
        case unexpected(Character, Int)
    }

    /// Writes `subscription` as a diagram.
    public static func renderSubscription(_ subscription: Subscription) -> String {
        let lead = String(repeating: "-", count: subscription.subscribed)
        guard let disposed = subscription.disposed else { return lead + "^" }
        if disposed == subscription.subscribed { return lead + "(^!)" }
        return lead + "^" + String(repeating: "-", count: disposed - subscription.subscribed - 1) + "!"
    }

    /// Reads a subscription diagram: every character but a space takes a frame, a group `(^!)`
    /// puts both in the frame of its `(`.
    public static func parseSubscription(_ diagram: String) throws(SubscriptionParseError) -> Subscription {
        var frame = 0
        var groupFrame: Int?
        var subscribed: Int?
        var disposed: Int?
        for (offset, character) in diagram.enumerated() where character != " " {
            switch character {
            case "-" where disposed == nil:
                break
            case "(" where groupFrame == nil && disposed == nil:
                groupFrame = frame
            case ")" where groupFrame != nil:
                groupFrame = nil
            case "^" where subscribed == nil:
                subscribed = groupFrame ?? frame
            case "!" where subscribed != nil && disposed == nil:
                disposed = groupFrame ?? frame
            default:
                throw .unexpected(character, offset)
            }
            frame += 1
        }
        guard let subscribed else { throw .noSubscription }
        guard groupFrame == nil else { throw .unexpected("(", diagram.count) }
        return Subscription(subscribed: subscribed, disposed: disposed)
    }
}
