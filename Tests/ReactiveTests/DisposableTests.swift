import Locking
import Reactive
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
        let first = ActionDisposable()
        let second = ActionDisposable()
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

    /// RACSerialDisposableSpec: `swapInDisposable:` hands back the previous disposable undisposed,
    /// and after disposal disposes the new one at once.
    @Test func swappingInReturnsThePreviousInnerWithoutDisposingIt() {
        let serial = SerialDisposable()
        let first = ActionDisposable()
        let second = ActionDisposable()
        #expect(serial.swap(in: first) == nil)
        #expect(serial.swap(in: second) === first)
        #expect(!first.isDisposed, "swapped out, not disposed")
        #expect(serial.inner === second)
        #expect(serial.swap(in: nil) === second)
        #expect(!second.isDisposed)
        serial.dispose()
        let late = ActionDisposable()
        #expect(serial.swap(in: late) == nil)
        #expect(late.isDisposed, "swapped into a disposed serial disposable: disposed at once")
    }

    @Test func settingNilDisposesThePreviousInnerAndLeavesNone() {
        let serial = SerialDisposable()
        let first = ActionDisposable()
        serial.inner = first
        serial.inner = nil
        #expect(first.isDisposed, "unlike RAC's setter, which only lets go")
        #expect(serial.inner == nil)
        #expect(!serial.isDisposed)
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
