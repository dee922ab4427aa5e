import Locking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scheduler with a name a reader understands (`background`), which its work runs under: RAC's
/// `-[RACScheduler name]` and `+[RACScheduler currentScheduler]`, as a name.
///
/// While the work of a named scheduler runs, ``currentName`` is its name, on whatever thread the
/// base scheduler lends it (a Dispatch queue's threads come from a pool). A thread that belongs to
/// one scheduler for good, such as a ``RunLoopScheduler``'s, can be named once with
/// ``nameCurrentThread(_:)``. This is how every event a signal delivers can say which thread it was
/// on, without asking the thread: an event recorder reads ``currentName``.
///
/// Each piece of work also starts a new `ThreadWork` (in `Locking`) piece, so that CPU time measured on a shared
/// pool thread is never charged across two pieces of work.
public final class NamedScheduler: Scheduler {
    /// The name its work runs under.
    public let name: String
    private let base: any Scheduler
    private let label: Label

    /// `base` under the name `name`.
    public init(_ base: any Scheduler, name: String) {
        self.base = base
        self.name = name
        label = Label(name)
    }

    /// The name of the scheduler whose work the calling thread runs, or the thread's own name
    /// (``nameCurrentThread(_:)``); `nil` on a thread with neither.
    public static var currentName: String? {
        pthread_getspecific(key).map { Unmanaged<Label>.fromOpaque($0).takeUnretainedValue().name }
    }

    /// Names the calling thread for good (until another call): the name its events carry when no
    /// named scheduler's work runs on it. For a thread owned by one scheduler, called on it once.
    public static func nameCurrentThread(_ name: String) {
        // Each call keeps its label for the life of the process: a thread is named once or twice.
        pthread_setspecific(key, Unmanaged.passRetained(Label(name)).toOpaque())
    }

    /// The base scheduler's time.
    public var now: Duration { base.now }

    /// Runs `action` on the base scheduler, under this scheduler's name.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
        let label = self.label
        return base.schedule { label.run(action) }
    }

    /// Runs `action` after `delay` on the base scheduler, under this scheduler's name.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        let label = self.label
        return base.schedule(after: delay) { label.run(action) }
    }

    /// The per-thread key whose value is the current ``Label``, unretained: a scheduler's label is
    /// kept alive by the work that set it, a thread's by ``nameCurrentThread(_:)``.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    /// A name, as an object whose address the per-thread key can hold.
    private final class Label: Sendable {
        let name: String
        init(_ name: String) { self.name = name }

        /// Runs `action` under this name, as a new piece of work, then restores the thread's name.
        func run(_ action: () -> Void) {
            let previous = pthread_getspecific(NamedScheduler.key)
            ThreadWork.begin()
            pthread_setspecific(NamedScheduler.key, Unmanaged.passUnretained(self).toOpaque())
            withExtendedLifetime(self) { action() }
            pthread_setspecific(NamedScheduler.key, previous)
        }
    }
}
