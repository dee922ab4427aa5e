import CFutex

#if canImport(Glibc)
import Glibc
#endif

/// The scheduling priority of the thread that calls it, for the threads that run users' programs:
/// they may use every core, but the scenarios' sessions and the polling thread come first.
enum ThreadPriority {
    /// The nice value of program threads: a busy program thread gets about a tenth of a core that a
    /// thread of nice 0 also wants (the kernel's weights: 110 against 1024), and all of an idle one.
    static let programNice: Int32 = 10

    /// The time slice of program threads, in nanoseconds: the kernel's shortest (0.1 ms; its
    /// default is 1.4 ms on two cores). The EEVDF scheduler (Linux 6.6) lets a running thread
    /// finish its slice before a thread that wakes takes its core, so a scenario's input waited up
    /// to a program thread's whole slice; with 0.1 ms, a scenario session's p99 under the hostile
    /// corpus fell from about 2.0–2.4× idle to 1.5× (docs/PERFORMANCE.md, "Where the time and
    /// memory go").
    static let programSliceNanoseconds: UInt64 = 100_000

    /// Lowers the calling thread's priority to `nice` and, where the kernel can (Linux 6.12),
    /// shortens its time slice to `programSliceNanoseconds`; without that, only the nice value
    /// (Linux keeps one per thread, and raising it needs no privilege). Returns whether the nice
    /// value took.
    @discardableResult
    static func lowerCurrentThreadForPrograms() -> Bool {
        #if os(Linux)
        if csched_set_nice_and_slice(programNice, programSliceNanoseconds) == 0 { return true }
        #endif
        return lowerCurrentThread(to: programNice)
    }

    /// Whether the kernel lets the calling thread set its own time slice: sets it to the program
    /// threads' and reads it back. For tests, on a thread of their own.
    static func setsSlice() -> Bool {
        #if os(Linux)
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        guard csched_set_nice_and_slice(before, programSliceNanoseconds) == 0 else { return false }
        return csched_slice() == programSliceNanoseconds
        #else
        return false
        #endif
    }

    /// The calling thread's time slice as the kernel reports it (Linux), or `nil`.
    static var currentSliceNanoseconds: UInt64? {
        let slice = csched_slice()
        return slice == 0 ? nil : slice
    }

    /// Lowers the calling thread's priority to `nice` (Linux keeps a nice value per thread, and
    /// raising it needs no privilege). Returns whether it took.
    @discardableResult
    static func lowerCurrentThread(to nice: Int32) -> Bool {
        #if os(Linux)
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
        #else
        return false
        #endif
    }

    /// The calling thread's nice value (Linux), or `nil`.
    static var currentNice: Int32? {
        #if os(Linux)
        errno = 0
        let value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        return errno == 0 ? value : nil
        #else
        return nil
        #endif
    }
}
