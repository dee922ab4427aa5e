import Locking
import Reactive

/// Operators on events, errors, repetition and multicasting: `materialize`, `dematerialize`,
/// `attempt`, `publish`, `replay`, `replayLast`, `replayLazily`; and the names of
/// docs/OPERATORS.md a program cannot use, each with the reason and what to write instead.
extension Builder {
    /// How many values `replay()` and `replayLazily()` keep for later readers (RAC keeps all).
    static let replayCapacity = 1_000

    func materialize(_ call: OperatorCall) -> SignalMaker {
        let upstream = call.upstream
        return { scopes in upstream(scopes).materialize().map(Self.describe).promoteError(PipelineFailure.self) }
    }

    func dematerialize(_ call: OperatorCall) -> SignalMaker {
        let (upstream, range) = (call.upstream, call.arguments.range)
        return { scopes in
            let events = upstream(scopes)
            return Signal { subscriber in
                events.subscribe(
                    Subscriber { event in
                        guard case .next(let value) = event else { return subscriber.send(event) }
                        subscriber.send(
                            Self.event(described: value)
                                ?? .error(
                                    .closure("`dematerialize` needs events as `materialize` sends them, not \(value.kindName)", at: range)
                                )
                        )
                    },
                    for: subscriber
                )
            }
        }
    }

    /// `attempt { test }`: a value that fails the test fails the stream (RAC `try:`).
    func attempt(_ call: OperatorCall) throws(BuildError) -> SignalMaker {
        let closure = try valueClosure(call.arguments, 0)
        let (upstream, range) = (call.upstream, call.arguments[0].range)
        return { scopes in
            upstream(scopes).attempt { value throws(PipelineFailure) in
                guard case .bool(let passed) = try closure(scopes, [value]) else {
                    throw .closure("`attempt`'s closure must give a bool", at: range)
                }
                if !passed {
                    throw PipelineFailure(
                        code: "attempt_failed",
                        message: "line \(range.line), column \(range.column): a value did not pass the test"
                    )
                }
            }
        }
    }

    /// `publish()`, which the checker allows only as `publish().autoconnect()`: a plain subject,
    /// connected at the first subscription. Its connection ends when its last subscriber leaves
    /// (RAC's autoconnect), so stopping the program, which disposes every subscription, ends it too.
    func publish(_ call: OperatorCall) -> SignalMaker {
        plain(call) { $0.publish().autoconnect() }
    }

    /// `replay()` and `replayLast()` (connected at once), `replayLazily()` (connected at its first
    /// subscription), keeping `capacity` values for later readers. The connection is the
    /// program's: stopping or halting the program disposes it, or its source (an interval, say)
    /// would run, and its replay stay, for ever.
    func replay(_ call: OperatorCall, capacity: Int, lazily: Bool) -> SignalMaker {
        let upstream = call.upstream
        let subscriptions = self.subscriptions
        return { scopes in
            let connection = upstream(scopes).multicast(ReplaySubject(capacity: capacity))
            guard lazily else {
                subscriptions.add(connection.connect())
                return connection.signal
            }
            let isConnected = Lock(false)
            return .deferred {
                if isConnected.withLock({ connected in
                    defer { connected = true }
                    return !connected
                }) {
                    subscriptions.add(connection.connect())
                }
                return connection.signal
            }
        }
    }

    /// Names of docs/OPERATORS.md that a program cannot use: why, and what to write instead.
    static let outsideTheLanguage: [String: (reason: String, hint: String)] = [
        "switchToLatest": (
            "`switchToLatest` needs a stream of streams, and a stream's values are JSON here",
            "`x.map { search($0) }.switchToLatest()` is written `x.flatMap(.latest) { search($0) }`"
        ),
        "flatten": (
            "`flatten` needs a stream of streams, and a stream's values are JSON here",
            "`x.map { f($0) }.flatten()` is written `x.flatMap(.merge) { f($0) }`"
        ),
        "groupBy": (
            "`groupBy` sends streams, and a stream's values are JSON here",
            "filter by key instead: `x.filter { $0.kind == \"a\" }`"
        ),
        "doNext": ("`doNext` runs a side effect, and closures here are pure", "every stage is already shown: nothing to log"),
        "doError": ("`doError` runs a side effect, and closures here are pure", "every stage is already shown: nothing to log"),
        "doCompleted": ("`doCompleted` runs a side effect, and closures here are pure", "every stage is already shown: nothing to log"),
        "initially": ("`initially` runs a side effect, and closures here are pure", "to send a first value, write `startWith(v)`"),
        "finally": ("`finally` runs a side effect, and closures here are pure", "to send a last value, write `concat(with: just(v))`"),
    ]

    /// An event as a value: `{"event": "value", "value": v}`, `{"event": "error", "code", "message"}`
    /// or `{"event": "completed"}`.
    @Sendable static func describe(_ event: Event<Value, PipelineFailure>) -> Value {
        switch event {
        case .next(let value): .object(["event": .string("value"), "value": value])
        case .error(let failure): .object(["event": .string("error"), "code": .string(failure.code), "message": .string(failure.message)])
        case .completed: .object(["event": .string("completed")])
        }
    }

    /// The event a value made by ``describe(_:)`` stands for, or `nil`.
    static func event(described value: Value) -> Event<Value, PipelineFailure>? {
        guard case .object(let fields) = value, case .string(let kind)? = fields["event"] else { return nil }
        switch kind {
        case "value": return fields["value"].map { .next($0) }
        case "completed": return .completed
        case "error":
            guard case .string(let code)? = fields["code"], case .string(let message)? = fields["message"] else { return nil }
            return .error(PipelineFailure(code: code, message: message))
        default: return nil
        }
    }
}
