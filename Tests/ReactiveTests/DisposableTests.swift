import Reactive
import Locking
import Testing

@Suite("Disposables")
struct DisposableTests {
    @Test func actionRunsOnce() {
        let runs = Lock(0)
        let disposable = ActionDisposable { runs.withLock { $0 += 1 } }
        #expect(!disposable.isDisposed)
        disposable.dispose()
        disposable.dispose()
        #expect(disposable.isDisposed)
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func compoundDisposesChildrenAndLateAdditions() {
        let compound = CompoundDisposable()
        let first = ActionDisposable()
        compound.add(first)
        compound.dispose()
        #expect(first.isDisposed)
        let late = ActionDisposable()
        compound.add(late)
        #expect(late.isDisposed, "adding to a disposed compound disposes at once")
    }

    @Test func serialDisposesThePreviousInner() {
        let serial = SerialDisposable()
        let first = ActionDisposable(), second = ActionDisposable()
        serial.inner = first
        serial.inner = second
        #expect(first.isDisposed)
        #expect(!second.isDisposed)
        serial.dispose()
        #expect(second.isDisposed)
        let third = ActionDisposable()
        serial.inner = third
        #expect(third.isDisposed)
    }

    @Test func scopedDisposesWhenReleased() {
        let inner = ActionDisposable()
        do {
            let scoped = inner.scoped()
            _ = scoped
        }
        #expect(inner.isDisposed)
    }
}
