extension Signal {
    /// The signal's values as an `AsyncSequence`. Iterating subscribes; the sequence finishes on
    /// completion, throws on an error, and breaking out of the loop (or cancelling the task)
    /// disposes the subscription. Values are buffered while the loop is busy.
    public var values: AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): continuation.yield(value)
                    case .error(let error): continuation.finish(throwing: error)
                    case .completed: continuation.finish()
                    }
                }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }

    /// A cold signal that iterates `sequence` for each subscriber in a new task, sending its
    /// elements, then completion or its error; disposal cancels the task.
    public static func from<S: AsyncSequence & Sendable>(_ sequence: S) -> Signal
    where S.Element == Value, S.Failure == Failure {
        Signal { subscriber in
            let task = Task {
                do throws(Failure) {
                    var iterator = sequence.makeAsyncIterator()
                    while let value = try await iterator.next(isolation: nil) {
                        subscriber.sendNext(value)
                    }
                    subscriber.sendCompleted()
                } catch {
                    subscriber.sendError(error)
                }
            }
            return ActionDisposable { task.cancel() }
        }
    }

    /// A cold signal that runs `operation` in a new task for each subscriber and sends its result,
    /// then completes (or sends its error); disposal cancels the task.
    public static func async(_ operation: @escaping @Sendable () async throws(Failure) -> Value) -> Signal {
        Signal { subscriber in
            let task = Task {
                do throws(Failure) {
                    let value = try await operation()
                    subscriber.sendNext(value)
                    subscriber.sendCompleted()
                } catch {
                    subscriber.sendError(error)
                }
            }
            return ActionDisposable { task.cancel() }
        }
    }
}

extension Signal where Failure == Never {
    /// The signal's values as an `AsyncStream` (for signals that cannot fail). Breaking out of the
    /// loop disposes the subscription.
    public var stream: AsyncStream<Value> {
        AsyncStream { continuation in
            let subscription = subscribe(
                Subscriber { event in
                    switch event {
                    case .next(let value): continuation.yield(value)
                    case .completed: continuation.finish()
                    }
                }
            )
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
