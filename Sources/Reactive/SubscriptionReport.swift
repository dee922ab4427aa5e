/// What a probe on a named signal reports of one subscription to it, each subscription with an id
/// of its own: it began (RxJS's `^`), it delivered an event, or it ended (`!`: disposed by its
/// subscriber, after its terminal event, or when whoever made it stopped). What RxSwift's
/// `debug()` prints, as values; the playground draws every subscription of a scenario's stages
/// and of a program's streams from these.
public enum SubscriptionReport<Value: Sendable, Failure: Error>: Sendable {
    /// Subscription `id` began, before it subscribed to what it reads.
    case subscribed(Int)
    /// An event, delivered to `subscription` (`nil` only for an event that ends a stream never
    /// subscribed to, as a halted program reports).
    case event(Event<Value, Failure>, subscription: Int?)
    /// Subscription `id` ended.
    case disposed(Int)

    /// The subscription the report is about (`nil` only for an event that ends a stream never
    /// subscribed to).
    public var subscription: Int? {
        switch self {
        case .subscribed(let id), .disposed(let id): id
        case .event(_, let id): id
        }
    }

    /// The same report, its event's value or failure transformed.
    public func map<NewValue: Sendable, NewFailure: Error>(
        value transformValue: (Value) -> NewValue,
        failure transformFailure: (Failure) -> NewFailure
    ) -> SubscriptionReport<NewValue, NewFailure> {
        switch self {
        case .subscribed(let id): .subscribed(id)
        case .disposed(let id): .disposed(id)
        case .event(.next(let value), let id): .event(.next(transformValue(value)), subscription: id)
        case .event(.error(let error), let id): .event(.error(transformFailure(error)), subscription: id)
        case .event(.completed, let id): .event(.completed, subscription: id)
        }
    }
}

extension SubscriptionReport: Equatable where Value: Equatable, Failure: Equatable {}
