import Foundation
import Locking
import Reactive

/// The work a running program may do: every subscription to a source or stage and every value a
/// stage sends is one step. Steps come from a bucket of ``Limits/capacity`` that refills at
/// ``Limits/perSecond`` of real time (real even on a virtual clock: the thread is real). A program that empties it —
/// `failure("x").retry()`, `just(1).repeat()`, an explosion of `flatMap`s over `from([…])` — is
/// halted: every subscription is disposed, which stops even a synchronous loop, and each of its
/// streams ends with the error `budget_exceeded`. It can never keep a session thread, which other
/// sessions share, busy for long.
public final class StepBudget: Sendable {
    /// How many steps a program has at once, and how fast they come back.
    public struct Limits: Sendable {
        /// Steps available at once.
        public var capacity: Double
        /// Steps added each second.
        public var perSecond: Double

        /// The server's limits: 200,000 steps at once, 50,000 more a second.
        public static let standard = Limits(capacity: 200_000, perSecond: 50_000)

        /// Creates limits.
        public init(capacity: Double, perSecond: Double) {
            self.capacity = capacity
            self.perSecond = perSecond
        }
    }

    private struct State {
        var tokens: Double
        var updated = ContinuousClock.now
        var isExhausted = false
    }

    let limits: Limits
    private let state: Lock<State>
    /// Called once, when the budget runs out.
    private let onExhausted: @Sendable () -> Void

    init(_ limits: Limits = .standard, onExhausted: @escaping @Sendable () -> Void) {
        self.limits = limits
        state = Lock(State(tokens: limits.capacity))
        self.onExhausted = onExhausted
    }

    /// Takes one step; `false` (and the program halted) once the budget is exhausted.
    func spend() -> Bool {
        let (allowed, exhaustedNow) = state.withLock { state -> (Bool, Bool) in
            guard !state.isExhausted else { return (false, false) }
            let now = ContinuousClock.now
            let elapsed = Double((now - state.updated) / .microseconds(1)) / 1_000_000
            state.tokens = min(limits.capacity, state.tokens + elapsed * limits.perSecond)
            state.updated = now
            guard state.tokens >= 1 else {
                state.isExhausted = true
                return (false, true)
            }
            state.tokens -= 1
            return (true, false)
        }
        if exhaustedNow { onExhausted() }
        return allowed
    }
}

extension Signal where Value == Pipelines.Value, Failure == PipelineFailure {
    /// This signal, spending a step of `budget` for its subscription and for each value; when the
    /// budget is out, nothing more passes (the program is being halted).
    func spending(_ budget: StepBudget) -> Signal {
        Signal { subscriber in
            guard budget.spend() else { return nil }
            return subscribe(
                Subscriber { event in
                    if case .next = event, !budget.spend() { return }
                    subscriber.send(event)
                },
                for: subscriber
            )
        }
    }

    /// This signal, spending a step of `budget` for each subscription only: what reading a named
    /// stream, an input or a command's member costs. Their values were paid for by the stage that
    /// sent them, but a reader that subscribes again and again must run out — `s0.repeat()` of a
    /// stream that has ended resubscribed for ever without a step, and kept the program thread
    /// busy for good.
    func spendingOnSubscription(_ budget: StepBudget) -> Signal {
        Signal { subscriber in
            guard budget.spend() else { return nil }
            subscribe(subscriber)
            return nil
        }
    }
}
