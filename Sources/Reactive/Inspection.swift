import CInspection

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What RAC's objects do, told to whoever looks: the source of the playground's Inside view.
///
/// An ``Inspector`` receives an ``InspectionEvent`` for every subscriber, disposable (plain,
/// compound, serial, scoped), subject, replay subject, multicast connection and channel terminal
/// that the inspected work creates, and for every change of what holds what: a child added to or
/// removed from its owner, a serial disposable's swap, a replay buffer's size, a disposal.
///
/// ## Scope
///
/// Inspection belongs to a thread, for the duration of ``run(reportingTo:_:)``: the work run in
/// it, and the work it schedules on a ``TestScheduler``, a ``QueueScheduler``, a
/// ``RunLoopScheduler`` or a ``NamedScheduler`` of them — each piece of scheduled work runs under
/// the inspector that was current when it was scheduled. Work started on a thread by other means
/// (a Dispatch queue used directly) is not inspected unless it calls `run` itself.
///
/// ## Cost
///
/// When no thread of the process inspects, each place that could report reads one global
/// counter and goes on (docs/PERFORMANCE.md measures that against a build without the places).
/// Only while some thread inspects does a place look up its thread's inspector.
///
/// ## Identity
///
/// Objects are named by `ObjectIdentifier`: unique among live objects, but an address may be
/// used again once an object is freed. A ``InspectionEvent/created(_:)`` always comes before the
/// events of a new object, so an inspector that maps identifiers to ids of its own at `created`
/// never confuses two objects that were inspected from their creation.
public enum Inspection {
    /// Runs `body` with `inspector` receiving the inspection events of the calling thread (and of
    /// the work it schedules, see the type's documentation), then restores the thread's previous
    /// inspector, if any.
    @discardableResult
    public static func run<Result>(
        reportingTo inspector: any Inspector,
        _ body: () throws -> Result
    ) rethrows -> Result {
        let scope = Scope(inspector)
        let previous = pthread_getspecific(scopeKey)
        cinspection_enter()
        pthread_setspecific(scopeKey, Unmanaged.passUnretained(scope).toOpaque())
        defer {
            pthread_setspecific(scopeKey, previous)
            cinspection_leave()
        }
        return try withExtendedLifetime(scope) { try body() }
    }

    /// The calling thread's inspector, or `nil` when it is not inspected (or is reporting: an
    /// inspector's own work is never inspected).
    public static var currentInspector: (any Inspector)? {
        guard isAnyThreadInspecting else { return nil }
        return currentScope?.inspector
    }

    /// Whether some thread of the process inspects: one relaxed load, what every place that could
    /// report reads first.
    @inlinable
    static var isAnyThreadInspecting: Bool {
        #if REACTIVE_NO_INSPECTION
        // The build without the hook, for measuring it: every place that could report is dead code.
        false
        #else
        cinspection_scope_count() != 0
        #endif
    }

    /// `action`, made to run under the calling thread's inspector, if it has one: what a scheduler
    /// does to each piece of work it is given.
    static func carrying(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard isAnyThreadInspecting, let scope = currentScope else { return action }
        let inspector = scope.inspector
        return { run(reportingTo: inspector, action) }
    }

    /// Tells the calling thread's inspector, if any, about the event `makeEvent` makes (only
    /// then). While the inspector runs, the thread is not inspected, so that what the inspector
    /// itself creates is not reported to it.
    private static func report(_ makeEvent: () -> InspectionEvent) {
        guard let scope = currentScope else { return }
        let event = makeEvent()
        pthread_setspecific(scopeKey, nil)
        defer { pthread_setspecific(scopeKey, Unmanaged.passUnretained(scope).toOpaque()) }
        scope.inspector.record(event)
    }

    // Each place that could report tests `isAnyThreadInspecting` inline, then calls one of these:
    // out of line, so that the hot path's function keeps its small frame (inlined, a report's
    // code made its callers save more registers: 3 % of a subscription, counted by callgrind).

    /// Reports that `object` was created, as a `kind`.
    @usableFromInline @inline(never)
    static func reportCreated(_ object: AnyObject, as kind: InspectedKind) {
        report {
            .created(InspectedObject(ObjectIdentifier(object), kind: kind, typeName: String(describing: type(of: object))))
        }
    }

    /// Reports the subscription `subscription` as created, the first time it is seen — held,
    /// joining a subject, stopping: its initializer reports nothing, being compiled into every
    /// caller (see ``InspectionEvent/created(_:)``).
    @usableFromInline @inline(never)
    static func reportSeen(_ subscription: Subscription) {
        #if !REACTIVE_NO_INSPECTION
        guard subscription.inspectionSeen.exchange(1, ordering: .relaxed) == 0 else { return }
        reportCreated(subscription, as: .subscriber)
        #endif
    }

    /// Reports that the subscription `owner` holds `child` (seeing both, if subscriptions).
    @inline(never)
    static func reportHeld(_ child: any Disposable, bySubscription owner: Subscription) {
        reportSeen(owner)
        if let child = child as? Subscription { reportSeen(child) }
        reportAdded(child, to: owner)
    }

    /// Reports that `owner` holds `child`.
    @usableFromInline @inline(never)
    static func reportAdded(_ child: AnyObject, to owner: AnyObject) {
        report { .added(ObjectIdentifier(child), to: ObjectIdentifier(owner)) }
    }

    /// Reports that `owner` let `child` go without disposing it.
    @inline(never)
    static func reportRemoved(_ child: AnyObject, from owner: AnyObject) {
        report { .removed(ObjectIdentifier(child), from: ObjectIdentifier(owner)) }
    }

    /// Reports that `serial` swapped `old` for `new`.
    @usableFromInline @inline(never)
    static func reportSwap(_ serial: AnyObject, old: ObjectIdentifier?, new: ObjectIdentifier?) {
        report { .swapped(ObjectIdentifier(serial), old: old, new: new) }
    }

    /// Reports that the replay subject `list`'s buffer holds `count` values.
    @inline(never)
    static func reportBuffered(_ list: AnyObject, count: Int) {
        report { .buffered(ObjectIdentifier(list), count: count) }
    }

    /// Reports that `object` was disposed.
    @usableFromInline @inline(never)
    static func reportDisposed(_ object: AnyObject) {
        report { .disposed(ObjectIdentifier(object)) }
    }

    /// Reports that `object` is being freed: nothing holds a reference to it any more.
    @usableFromInline @inline(never)
    static func reportReleased(_ object: AnyObject) {
        report { .released(ObjectIdentifier(object)) }
    }

    /// Tells the calling thread's inspector, if any, what `object` is to the program that watches
    /// it: the subscription it makes to a named signal, or an object a tool added to watch one.
    /// Nothing happens when no thread inspects.
    @inlinable
    public static func label(_ object: AnyObject, _ label: InspectionLabel) {
        if isAnyThreadInspecting { reportLabel(object, label) }
    }

    @usableFromInline @inline(never)
    static func reportLabel(_ object: AnyObject, _ label: InspectionLabel) {
        if let subscription = object as? Subscription { reportSeen(subscription) }
        report { .labelled(ObjectIdentifier(object), label) }
    }

    /// Reports that `owner` holds `subject`, named by its subscriber list (what its subscribers
    /// join), if it is one of this module's subjects.
    static func reportHolding(_ subject: some SubjectProtocol, by owner: AnyObject) {
        guard let subject = subject as? any InspectableSubject else { return }
        report { .added(subject.inspectedList, to: ObjectIdentifier(owner)) }
    }

    private static var currentScope: Scope? {
        pthread_getspecific(scopeKey).map { Unmanaged<Scope>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The per-thread key whose value is the current ``Scope``, unretained: `run` keeps it alive.
    private static let scopeKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    /// An inspector, as an object whose address the per-thread key can hold.
    private final class Scope: Sendable {
        let inspector: any Inspector
        init(_ inspector: any Inspector) { self.inspector = inspector }
    }
}

/// A subject that inspection names by its subscriber list: the object its subscribers join and
/// its subscribe closure holds, which outlives the subject object itself.
protocol InspectableSubject {
    var inspectedList: ObjectIdentifier { get }
}

extension CurrentValueSubject: InspectableSubject {}

/// Receives ``InspectionEvent``s: see ``Inspection``.
///
/// ``record(_:)`` is called on the thread where the change happened, right after it, and never
/// while one of the changed object's locks is held; events of one thread come in the order they
/// happened. An inspector that several threads report to orders their events itself (a lock).
public protocol Inspector: AnyObject, Sendable {
    /// Takes one event. What it creates of Reactive's objects is not inspected.
    func record(_ event: InspectionEvent)
}

/// One change among RAC's objects (see ``Inspection``).
public enum InspectionEvent: Sendable, Equatable {
    /// An object was created. A ``Subscriber`` is reported the first time it is seen — when it is
    /// first held, joins a subject's list or stops, which for every subscriber comes right after
    /// its creation: its initializer, compiled into every caller, reports nothing (a report there
    /// cost every subscription a retain and a release).
    case created(InspectedObject)
    /// `owner` now holds `child`: a compound disposable's child, a subscriber's resource (its
    /// upstream subscription, the disposable its subscribe closure returned), a subject's
    /// subscriber, a serial disposable's first inner disposable.
    case added(ObjectIdentifier, to: ObjectIdentifier)
    /// `owner` let `child` go without disposing it (RAC `removeDisposable:`, a subscriber leaving
    /// a subject's list).
    case removed(ObjectIdentifier, from: ObjectIdentifier)
    /// A serial disposable's inner disposable was replaced (RAC `swapInDisposable:`): `old` (if
    /// any) is no longer held by it — disposed next if RAC disposes it — and `new` (if any) is.
    case swapped(ObjectIdentifier, old: ObjectIdentifier?, new: ObjectIdentifier?)
    /// A replay subject's buffer now holds `count` values (one entered, or the oldest left).
    case buffered(ObjectIdentifier, count: Int)
    /// An object was disposed: a subscriber's subscription ended (by its terminal event or by
    /// disposal), a disposable ran, a subject ended.
    case disposed(ObjectIdentifier)
    /// An object is being freed: the last reference to it went (ARC). One that was never disposed
    /// was let go of without being ended — a spent inner slot, or a subscription nobody can end.
    /// Its identifier may name a new object after this.
    case released(ObjectIdentifier)
    /// What an object is to the program that watches it (``Inspection/label(_:_:)``).
    case labelled(ObjectIdentifier, InspectionLabel)
}

/// What an object is to the program that watches it (``Inspection/label(_:_:)``).
public enum InspectionLabel: Sendable, Hashable {
    /// It is subscription `id` of the signal named `signal` — the subscriber a reader of that
    /// signal subscribed with (a stage's lane, from its `^` to its `!`, in the playground).
    case subscription(signal: String, id: Int)
    /// A tool added it to watch subscription `id` of `signal`: it is not the program's own (the
    /// playground's probe of a named stage, which reports the subscription's events).
    case probe(signal: String, id: Int)
}

/// An object as it is created: its identity, what it is in RAC's terms, and its Swift type.
public struct InspectedObject: Sendable, Hashable {
    /// The object's identity while it lives.
    public let identifier: ObjectIdentifier
    /// What it is, with RAC's class name (``InspectedKind/racClassName``).
    public let kind: InspectedKind
    /// Its Swift type, with generic arguments (`Subscriber<Int, Never>`).
    public let typeName: String

    /// An object of `kind` named `identifier`, of the Swift type `typeName`.
    public init(_ identifier: ObjectIdentifier, kind: InspectedKind, typeName: String) {
        self.identifier = identifier
        self.kind = kind
        self.typeName = typeName
    }
}

/// What an inspected object is, with the name of the RAC class it stands for.
public enum InspectedKind: String, Sendable, CaseIterable, Codable {
    /// A subscription's subscriber (``Subscriber``).
    case subscriber
    /// A disposable that runs a block (``ActionDisposable``).
    case disposable
    /// A disposable of many (``CompoundDisposable``).
    case compoundDisposable
    /// A disposable holding one replaceable disposable (``SerialDisposable``), or an operator's
    /// state that holds its current inner subscription as RAC's does in one (`switchToLatest`).
    case serialDisposable
    /// A disposable disposed on release (``ScopedDisposable``).
    case scopedDisposable
    /// A subject's list of subscribers (``Subject``).
    case subject
    /// A replay subject's list of subscribers and its buffer (``ReplaySubject``).
    case replaySubject
    /// A multicast connection (``MulticastConnection``).
    case multicastConnection
    /// One terminal of a channel (``ChannelTerminal``).
    case channelTerminal

    /// The RAC class this kind of object stands for. A ``Subscriber`` is one object where RAC
    /// has two: the `RACSubscriber` you pass, wrapped on subscription in a
    /// `RACPassthroughSubscriber` that holds the subscription's `RACCompoundDisposable`.
    public var racClassName: String {
        switch self {
        case .subscriber: "RACPassthroughSubscriber"
        case .disposable: "RACDisposable"
        case .compoundDisposable: "RACCompoundDisposable"
        case .serialDisposable: "RACSerialDisposable"
        case .scopedDisposable: "RACScopedDisposable"
        case .subject: "RACSubject"
        case .replaySubject: "RACReplaySubject"
        case .multicastConnection: "RACMulticastConnection"
        case .channelTerminal: "RACChannelTerminal"
        }
    }
}
