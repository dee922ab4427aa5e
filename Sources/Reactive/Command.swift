/// Why a ``Command``'s execution failed.
public enum CommandError<Failure: Error>: Error {
    /// `execute` was called while the command was disabled; nothing was started
    /// (RAC `RACCommandErrorNotEnabled`). Not sent on ``Command/errors``.
    case notEnabled
    /// The execution signal failed.
    case failed(Failure)
}

extension CommandError: Equatable where Failure: Equatable {}

/// An action triggered by input, with its enabled and executing state as signals: RAC's `RACCommand`.
///
/// - ``execute(_:)`` starts an execution at once, even with no subscriber, and returns a signal that
///   replays all of its events. On a disabled command it starts nothing (the closure is not called)
///   and returns a signal failing with ``CommandError/notEnabled``.
/// - ``executing`` starts `false` and is `true` while any execution runs, without repeats.
/// - ``enabled`` is the enabled signal's latest value (`true` until it sends) AND
///   (``allowsConcurrentExecution`` OR not executing), without repeats.
/// - ``executionSignals`` sends each execution's signal, with its error removed.
/// - ``errors`` is hot: it sends every execution failure that happens while subscribed, including
///   failures of executions that started earlier; nothing earlier is replayed.
///
/// RAC subscribes to an execution on a background scheduler and delivers `executing`/`enabled` on
/// the main thread; a server has neither, so here execution starts synchronously in `execute` and
/// state changes are delivered, serialized and in order, on the thread that caused them.
public final class Command<Input: Sendable, Output: Sendable, Failure: Error>: Sendable {
    private struct State: Sendable {
        var enabledInput = true
        var running = 0
        var allowsConcurrentExecution: Bool
        var isExecuting = false
        var isEnabled = true

        /// Whether another execution may start now.
        var canStart: Bool { enabledInput && (allowsConcurrentExecution || running == 0) }

        mutating func publishChanges(_ outbox: inout Outbox<Notice, Never>) {
            if isExecuting != (running > 0) {
                isExecuting = running > 0
                outbox.append(.next(.executing(isExecuting)))
            }
            let enabled = enabledInput && (allowsConcurrentExecution || !isExecuting)
            if enabled != isEnabled {
                isEnabled = enabled
                outbox.append(.next(.enabled(enabled)))
            }
        }
    }

    private enum Notice: Sendable {
        case allowsConcurrentExecution(Bool)
        case executing(Bool)
        case enabled(Bool)
        case execution(Signal<Output, Never>)
        case failure(Failure)
    }

    private let makeExecution: @Sendable (Input) -> Signal<Output, Failure>
    private let serializer: Serializer<State, Notice, Never>
    private let executingSubject = CurrentValueSubject<Bool, Never>(false)
    private let enabledSubject = CurrentValueSubject<Bool, Never>(true)
    private let allowsConcurrentExecutionSubject: CurrentValueSubject<Bool, Never>
    private let executionSignalsSubject = Subject<Signal<Output, Never>, Never>()
    private let errorsSubject = Subject<Failure, Never>()
    private let enabledSubscription = SerialDisposable()

    /// Creates a command (RAC `initWithEnabled:signalBlock:`).
    /// - Parameters:
    ///   - enabled: whether the command may execute; `true` until it sends.
    ///   - allowsConcurrentExecution: whether an execution may start while another runs.
    ///   - execute: makes the execution signal for an input; called only when enabled.
    public init(
        enabled: Signal<Bool, Never>? = nil,
        allowsConcurrentExecution: Bool = false,
        execute: @escaping @Sendable (Input) -> Signal<Output, Failure>
    ) {
        makeExecution = execute
        allowsConcurrentExecutionSubject = CurrentValueSubject(allowsConcurrentExecution)
        let executing = executingSubject
        let enabledOut = enabledSubject
        let allowsConcurrent = allowsConcurrentExecutionSubject
        let executions = executionSignalsSubject
        let errors = errorsSubject
        serializer = Serializer(
            State(allowsConcurrentExecution: allowsConcurrentExecution),
            Subscriber { event in
                guard case .next(let notice) = event else { return }
                switch notice {
                case .allowsConcurrentExecution(let value): allowsConcurrent.sendNext(value)
                case .executing(let value): executing.sendNext(value)
                case .enabled(let value): enabledOut.sendNext(value)
                case .execution(let signal): executions.sendNext(signal)
                case .failure(let error): errors.sendNext(error)
                }
            }
        )
        if let enabled {
            let serializer = self.serializer
            enabledSubscription.inner = enabled.subscribe(next: { value in
                serializer.update { state, outbox in
                    state.enabledInput = value
                    state.publishChanges(&outbox)
                }
            })
        }
    }

    /// Releasing the command completes its signals (RACCommand does; so does a released
    /// `MutableProperty`'s): `executing`, `enabled`, `executionSignals`, `errors` and
    /// `allowsConcurrentExecutionChanges`.
    deinit {
        enabledSubscription.dispose()
        executionSignalsSubject.sendCompleted()
        errorsSubject.sendCompleted()
        executingSubject.sendCompleted()
        enabledSubject.sendCompleted()
        allowsConcurrentExecutionSubject.sendCompleted()
    }

    /// Starts an execution with `input` if the command is enabled (RAC `execute:`).
    @discardableResult
    public func execute(_ input: Input) -> Signal<Output, CommandError<Failure>> {
        let started = serializer.update { state, outbox -> Bool in
            guard state.canStart else { return false }
            state.running += 1
            state.publishChanges(&outbox)
            return true
        }
        guard started else { return .failure(.notEnabled) }
        let replay = ReplaySubject<Output, Failure>()
        serializer.send(.next(.execution(replay.signal.catchTo(.empty))))
        let serializer = self.serializer
        makeExecution(input).subscribe(
            Subscriber { event in
                replay.send(event)
                guard event.isTerminating else { return }
                serializer.update { state, outbox in
                    if case .error(let error) = event { outbox.append(.next(.failure(error))) }
                    state.running -= 1
                    state.publishChanges(&outbox)
                }
            }
        )
        return replay.signal.mapError(CommandError.failed)
    }

    /// Whether an execution is running: `false` first, no repeats (RAC `executing`).
    public var executing: Signal<Bool, Never> { executingSubject.signal }

    /// Whether `execute` would start an execution now; current value first, no repeats (RAC `enabled`).
    public var enabled: Signal<Bool, Never> { enabledSubject.signal }

    /// Each execution's signal, errors removed, as it starts (RAC `executionSignals`).
    public var executionSignals: Signal<Signal<Output, Never>, Never> { executionSignalsSubject.signal }

    /// The failures of executions, as they happen (RAC `errors`).
    public var errors: Signal<Failure, Never> { errorsSubject.signal }

    /// Whether executions may overlap (RAC `allowsConcurrentExecution`). Default `false`.
    public var allowsConcurrentExecution: Bool {
        get { serializer.update { state, _ in state.allowsConcurrentExecution } }
        set {
            serializer.update { state, outbox in
                guard state.allowsConcurrentExecution != newValue else { return }
                state.allowsConcurrentExecution = newValue
                outbox.append(.next(.allowsConcurrentExecution(newValue)))
                state.publishChanges(&outbox)
            }
        }
    }

    /// ``allowsConcurrentExecution`` as a signal: the current value first, then each change, no
    /// repeats (what `RACObserve(command, allowsConcurrentExecution)` gives in RAC).
    public var allowsConcurrentExecutionChanges: Signal<Bool, Never> { allowsConcurrentExecutionSubject.signal }

    /// Whether an execution is running now.
    public var isExecuting: Bool { executingSubject.value }

    /// Whether `execute` would start an execution now.
    public var isEnabled: Bool { enabledSubject.value }
}
