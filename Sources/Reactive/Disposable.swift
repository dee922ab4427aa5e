import Locking

/// Something that can be cancelled or cleaned up: RAC's `RACDisposable`.
///
/// Disposal is idempotent and thread-safe: the first call does the work, later calls do nothing.
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
    /// Cancels the work or releases the resources this disposable stands for.
    func dispose()
}

/// A disposable that runs a closure once, on first disposal: RAC's `+[RACDisposable disposableWithBlock:]`.
public final class ActionDisposable: Disposable {
    private let action: Lock<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Lock(action)
        if Inspection.isAnyThreadInspecting { Inspection.reportCreated(self, as: .disposable) }
    }

    /// Creates a disposable with nothing to do but record that it was disposed.
    public convenience init() {
        self.init {}
    }

    deinit { if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) } }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { action.withLock { $0 == nil } }

    /// Runs the action if this is the first disposal. The action runs outside the lock.
    public func dispose() {
        let pending = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        guard let pending else { return }
        if Inspection.isAnyThreadInspecting { Inspection.reportDisposed(self) }
        pending()
    }
}

/// A disposable that disposes many others together: RAC's `RACCompoundDisposable`.
///
/// Adding a disposable to one that is already disposed disposes the added one at once.
public final class CompoundDisposable: Disposable {
    /// `nil` once disposed.
    private let children: Lock<[any Disposable]?>

    /// Creates a compound disposable holding `disposables`.
    public init(_ disposables: [any Disposable] = []) {
        children = Lock(disposables)
        if Inspection.isAnyThreadInspecting {
            Inspection.reportCreated(self, as: .compoundDisposable)
            for child in disposables { Inspection.reportAdded(child, to: self) }
        }
    }

    deinit { if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) } }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { children.withLock { $0 == nil } }

    /// Adds `disposable`, or disposes it at once if this compound disposable is already disposed.
    public func add(_ disposable: any Disposable) {
        let added = children.withLock { children -> Bool in
            guard children != nil else { return false }
            children!.append(disposable)
            return true
        }
        if !added {
            disposable.dispose()
        } else if Inspection.isAnyThreadInspecting {
            Inspection.reportAdded(disposable, to: self)
        }
    }

    /// Adds a disposable that runs `action` on disposal.
    public func add(_ action: @escaping @Sendable () -> Void) {
        add(ActionDisposable(action))
    }

    /// Removes `disposable` without disposing it (RAC `removeDisposable:`).
    public func remove(_ disposable: any Disposable) {
        let removed = children.withLock { children -> Bool in
            guard let index = children?.lastIndex(where: { $0 === disposable }) else { return false }
            children!.remove(at: index)
            return true
        }
        if removed, Inspection.isAnyThreadInspecting {
            Inspection.reportRemoved(disposable, from: self)
        }
    }

    /// Disposes every disposable added so far and every one added later.
    public func dispose() {
        let taken = children.withLock { children -> [any Disposable]? in
            defer { children = nil }
            return children
        }
        guard let taken else { return }
        if Inspection.isAnyThreadInspecting { Inspection.reportDisposed(self) }
        for disposable in taken { disposable.dispose() }
    }
}

/// A disposable holding one inner disposable that can be replaced: RAC's `RACSerialDisposable`.
///
/// Setting ``inner`` disposes the previous one (as ReactiveSwift's `SerialDisposable` does; RAC's
/// setter does not — ``swap(in:)`` is RAC's behaviour). Once the serial disposable itself is
/// disposed, it disposes its inner one and every one assigned later.
public final class SerialDisposable: Disposable {
    private struct State {
        var inner: (any Disposable)?
        var isDisposed = false
    }
    private let state = Lock(State())

    /// Creates a serial disposable, optionally with a first inner disposable.
    public init(_ inner: (any Disposable)? = nil) {
        state.withLock { $0.inner = inner }
        if Inspection.isAnyThreadInspecting {
            Inspection.reportCreated(self, as: .serialDisposable)
            if let inner { Inspection.reportAdded(inner, to: self) }
        }
    }

    deinit { if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) } }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current inner disposable. Setting it disposes the previous one (outside the lock), or
    /// the new one at once if this serial disposable is already disposed.
    public var inner: (any Disposable)? {
        get { state.withLock { $0.inner } }
        set {
            let (toDispose, isDisposed) = state.withLock { state -> ((any Disposable)?, Bool) in
                if state.isDisposed { return (newValue, true) }
                defer { state.inner = newValue }
                return (state.inner, false)
            }
            if !isDisposed, Inspection.isAnyThreadInspecting { reportSwap(old: toDispose, new: newValue) }
            toDispose?.dispose()
        }
    }

    /// Makes `newInner` the inner disposable and returns the previous one *without* disposing it
    /// (RAC `swapInDisposable:`, which is also what RAC's `disposable` setter does). If this serial
    /// disposable is already disposed, `newInner` is disposed at once and `nil` returned.
    @discardableResult
    public func swap(in newInner: (any Disposable)?) -> (any Disposable)? {
        let (previous, isDisposed) = state.withLock { state -> ((any Disposable)?, Bool) in
            if state.isDisposed { return (nil, true) }
            defer { state.inner = newInner }
            return (state.inner, false)
        }
        if isDisposed {
            newInner?.dispose()
        } else if Inspection.isAnyThreadInspecting {
            reportSwap(old: previous, new: newInner)
        }
        return previous
    }

    private func reportSwap(old: (any Disposable)?, new: (any Disposable)?) {
        Inspection.reportSwap(self, old: old.map(ObjectIdentifier.init), new: new.map(ObjectIdentifier.init))
    }

    /// Disposes the inner disposable and every one assigned later.
    public func dispose() {
        let (inner, wasDisposed) = state.withLock { state -> ((any Disposable)?, Bool) in
            guard !state.isDisposed else { return (nil, true) }
            state.isDisposed = true
            defer { state.inner = nil }
            return (state.inner, false)
        }
        guard !wasDisposed else { return }
        if Inspection.isAnyThreadInspecting { Inspection.reportDisposed(self) }
        inner?.dispose()
    }
}

/// A disposable that disposes its inner disposable when it is released: RAC's
/// `RACScopedDisposable` (`-asScopedDisposable`).
public final class ScopedDisposable: Disposable {
    /// The disposable disposed when this one is released or disposed.
    public let inner: any Disposable

    /// Wraps `inner`, so that releasing the last reference to the wrapper disposes it.
    public init(_ inner: any Disposable) {
        self.inner = inner
        if Inspection.isAnyThreadInspecting {
            Inspection.reportCreated(self, as: .scopedDisposable)
            Inspection.reportAdded(inner, to: self)
        }
    }

    /// Whether the inner disposable is disposed.
    public var isDisposed: Bool { inner.isDisposed }

    /// Disposes the inner disposable now.
    public func dispose() { inner.dispose() }

    deinit {
        inner.dispose()
        if Inspection.isAnyThreadInspecting { Inspection.reportReleased(self) }
    }
}

extension Disposable {
    /// Wraps this disposable so that it is disposed when the wrapper is released (RAC `asScopedDisposable`).
    public func scoped() -> ScopedDisposable { ScopedDisposable(self) }
}
