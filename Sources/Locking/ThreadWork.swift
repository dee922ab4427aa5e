#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which piece of work the calling thread is doing, and how much CPU time it has used: what lets a
/// program's budget charge the CPU time of its own work only, on a thread it shares with others.
///
/// A thread that runs other code's work one piece at a time (a `RunLoopScheduler`'s) calls
/// ``begin()`` before each piece. Two readings on one thread with the same ``current`` number are
/// then in one piece of work, and the CPU time between them was that work's; readings with
/// different numbers may have other work between them. A thread that never calls ``begin()`` is
/// one long piece of work.
public enum ThreadWork {
    /// The key of the per-thread counter. Its value is the counter itself, stored as the pointer's
    /// bits: reading it allocates nothing and takes no lock.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    /// The number of the piece of work the calling thread is doing (0 before its first ``begin()``).
    public static var current: UInt {
        UInt(bitPattern: pthread_getspecific(key))
    }

    /// Marks the start of a new piece of work on the calling thread.
    public static func begin() {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: current &+ 1))
    }

    /// The CPU time the calling thread has used since it started, in nanoseconds.
    public static func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Names the calling thread as `top -H` and `/proc/PID/task/*/comm` show it (the first 15
    /// bytes of `name`): a thread otherwise keeps its creator's name, and Foundation's
    /// `Thread.name` does not reach the system on Linux.
    public static func setName(_ name: String) {
        #if os(Linux)
        guard let file = fopen("/proc/thread-self/comm", "w") else { return }
        fputs(String(decoding: name.utf8.prefix(15), as: UTF8.self), file)
        fclose(file)
        #endif
    }
}
