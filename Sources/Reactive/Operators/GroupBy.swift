import Locking

/// One group of ``Signal/groupBy(_:transform:)``: its key and the signal of its values — RAC's
/// `RACGroupedSignal`. The signal is hot: subscribe when the group arrives, or miss values.
public struct GroupedSignal<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    /// The key every value of the group has.
    public let key: Key
    /// The group's values, from the first one sent after subscribing; it ends when the source does.
    public let signal: Signal<Value, Failure>
}

extension Signal {
    /// Splits the values into groups by `key`, sending each group when its first value arrives
    /// (before that value), then `transform(value)` into its group. Completion and errors end
    /// every group and the result (RAC `groupBy:transform:`).
    public func groupBy<Key: Hashable & Sendable, GroupValue: Sendable>(
        _ key: @escaping @Sendable (Value) -> Key,
        transform: @escaping @Sendable (Value) -> GroupValue
    ) -> Signal<GroupedSignal<Key, GroupValue, Failure>, Failure> {
        Signal<GroupedSignal<Key, GroupValue, Failure>, Failure> { subscriber in
            // Events to one subscriber are serial, so the groups need a lock only to be Sendable.
            // The groups by key, and in the order they were made (the order they are ended in).
            let groups = Lock((byKey: [Key: Subject<GroupValue, Failure>](), inOrder: [Subject<GroupValue, Failure>]()))
            return subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value):
                        let groupKey = key(value)
                        let (group, isNew) = groups.withLock { groups -> (Subject<GroupValue, Failure>, Bool) in
                            if let group = groups.byKey[groupKey] { return (group, false) }
                            let group = Subject<GroupValue, Failure>()
                            groups.byKey[groupKey] = group
                            groups.inOrder.append(group)
                            return (group, true)
                        }
                        if isNew { subscriber.sendNext(GroupedSignal(key: groupKey, signal: group.signal)) }
                        group.sendNext(transform(value))
                    case .error(let error):
                        for group in groups.withLock({ $0.inOrder }) { group.sendError(error) }
                        subscriber.sendError(error)
                    case .completed:
                        for group in groups.withLock({ $0.inOrder }) { group.sendCompleted() }
                        subscriber.sendCompleted()
                    }
                },
                for: subscriber
            )
        }
    }

    /// Splits the values into groups by `key` (RAC `groupBy:`).
    public func groupBy<Key: Hashable & Sendable>(
        _ key: @escaping @Sendable (Value) -> Key
    ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
        groupBy(key, transform: { $0 })
    }
}
