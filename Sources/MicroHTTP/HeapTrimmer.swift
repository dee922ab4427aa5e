import CMicroHTTPD
import Dispatch
import Locking
import Synchronization

/// Hands the heap's free memory back to the system (glibc's `malloc_trim`) once a burst of frees
/// is over.
///
/// glibc keeps the memory it is given back: after a flood of streams or sessions, hundreds of MiB
/// stay resident unless trimmed. But `malloc_trim` walks the whole heap under the allocator's lock
/// — on a fragmented heap for up to tens of milliseconds, while every allocation of every thread
/// waits — and so does `mallinfo2`, the only way to ask glibc how much of the heap is free. Both
/// used to run several times a second, and under hostile programs they were the tail of every
/// other session's latency (docs/PERFORMANCE.md, "Programs").
///
/// So nothing here asks the allocator. Code that frees in bulk says so with ``noteRelease()`` (the
/// server for every closed connection, the playground for every ended session), and the heap is
/// trimmed once no release has been noted for ``quietPeriod`` — or, while releases go on without
/// such a pause, ``longestDelay`` after the first one — checked by every running server's connection
/// watch four times a second. Code that finds resident memory over a limit while the heap holds
/// less than that in use asks for a trim at once (``requestTrim()``), at most once per
/// ``longestDelay``: if a trim cannot bring it down (the free memory is scattered among pages
/// still in use), trying again and again would only stall the allocator.
///
/// There is one trimmer per process, ``shared``, because there is one heap: two servers in one
/// process trim it once, not once each.
///
/// Thread safety: the schedule is under a lock; ``noteRelease()`` takes it for a few instructions,
/// and the trim itself runs outside it.
public final class HeapTrimmer: Sendable {
    /// The process's trimmer.
    public static let shared = HeapTrimmer(quietPeriod: .seconds(1), longestDelay: .seconds(10))

    /// How long no release must be noted before the heap is trimmed.
    public let quietPeriod: Duration
    /// How long after the first release since the last trim the heap is trimmed even if releases
    /// go on: memory freed during a long flood comes back that soon after it.
    public let longestDelay: Duration

    private let schedule: Lock<TrimSchedule>
    private let trims = Atomic<Int>(0)
    private let trim: @Sendable () -> Void

    /// A trimmer that runs `trim` (by default `malloc_trim(0)`) when its schedule says so.
    init(quietPeriod: Duration, longestDelay: Duration, trim: @escaping @Sendable () -> Void = { _ = rp_malloc_trim() }) {
        self.quietPeriod = quietPeriod
        self.longestDelay = longestDelay
        schedule = Lock(
            TrimSchedule(quietPeriod: quietPeriod.nanosecondsClamped, longestDelay: longestDelay.nanosecondsClamped)
        )
        self.trim = trim
    }

    /// Says that memory was just freed in bulk (a connection closed, a session ended): the heap
    /// will be trimmed once such releases pause.
    public func noteRelease() {
        let now = Self.now
        schedule.withLock { $0.noteRelease(at: now) }
    }

    /// Says that resident memory is over a limit though the heap holds less than that in use: the
    /// heap is trimmed at the next check, unless a trim asked for this way ran less than
    /// ``longestDelay`` ago.
    public func requestTrim() {
        schedule.withLock { $0.requestTrim() }
    }

    /// Trims the heap if the schedule says it is time; returns whether it did. Called by the
    /// connection watch of every running server.
    func trimIfDue() -> Bool {
        let now = Self.now
        guard schedule.withLock({ $0.takeTrimIfDue(at: now) }) else { return false }
        trim()
        trims.add(1, ordering: .relaxed)
        return true
    }

    /// How many times this trimmer has trimmed the heap.
    public var trimCount: Int { trims.load(ordering: .relaxed) }

    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// When to trim: the decision of ``HeapTrimmer``, on uptime nanoseconds passed in, so that it is
/// tested without a clock.
struct TrimSchedule {
    let quietPeriod: UInt64
    let longestDelay: UInt64
    /// The first release noted since the last trim; `nil` if none.
    private(set) var firstRelease: UInt64?
    /// The last release noted.
    private(set) var lastRelease: UInt64 = 0
    /// A trim was asked for (``HeapTrimmer/requestTrim()``).
    private(set) var isRequested = false
    /// When the last trim requested that way was taken; `nil` if none was.
    private(set) var lastRequestedTrim: UInt64?

    init(quietPeriod: UInt64, longestDelay: UInt64) {
        self.quietPeriod = quietPeriod
        self.longestDelay = longestDelay
    }

    mutating func noteRelease(at now: UInt64) {
        if firstRelease == nil { firstRelease = now }
        lastRelease = max(lastRelease, now)
    }

    mutating func requestTrim() {
        isRequested = true
    }

    /// Whether a trim is due at `now`; if so, the releases and the request so far count as
    /// trimmed. Times may come out of order from different threads, so elapsed time never goes
    /// below zero.
    mutating func takeTrimIfDue(at now: UInt64) -> Bool {
        if isRequested, lastRequestedTrim.map({ Self.elapsed(from: $0, to: now) >= longestDelay }) ?? true {
            lastRequestedTrim = now
        } else {
            guard let first = firstRelease else { return false }
            let quiet = Self.elapsed(from: lastRelease, to: now)
            guard quiet >= quietPeriod || Self.elapsed(from: first, to: now) >= longestDelay else { return false }
        }
        firstRelease = nil
        isRequested = false
        return true
    }

    private static func elapsed(from start: UInt64, to end: UInt64) -> UInt64 {
        end > start ? end - start : 0
    }
}
