#if canImport(Glibc)
import Glibc
#endif

/// The scheduling priority of the thread that calls it, for the threads that run users' programs:
/// they may use every core, but the scenarios' sessions and the polling thread come first.
enum ThreadPriority {
    /// The nice value of program threads: a busy program thread gets about a tenth of a core that a
    /// thread of nice 0 also wants (the kernel's weights: 110 against 1024), and all of an idle one.
    static let programNice: Int32 = 10

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
