extension Signal {
    /// Runs `action` for each value before passing it on (RAC `doNext:`).
    public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal {
        on { if case .next(let value) = $0 { action(value) } }
    }

    /// Runs `action` on an error before passing it on (RAC `doError:`).
    public func doError(_ action: @escaping @Sendable (Failure) -> Void) -> Signal {
        on { if case .error(let error) = $0 { action(error) } }
    }

    /// Runs `action` on completion before passing it on (RAC `doCompleted:`).
    public func doCompleted(_ action: @escaping @Sendable () -> Void) -> Signal {
        on { if case .completed = $0 { action() } }
    }

    /// Runs `action` when this signal completes or fails, before the event is passed on; not when
    /// the subscription is disposed (RAC `finally:`, which is `doError:` plus `doCompleted:`).
    public func finally(_ action: @escaping @Sendable () -> Void) -> Signal {
        on { if $0.isTerminating { action() } }
    }

    /// Runs `action` for every event before passing it on.
    private func on(_ action: @escaping @Sendable (Event<Value, Failure>) -> Void) -> Signal {
        Signal { subscriber in
            subscribe(
                Subscriber { event in
                    action(event)
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }
}
