#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's identity, for code that must recognise its own thread cheaply: a
/// re-entered ``ReentrantLock``, or the thread that holds a serializer's delivery.
public enum ThreadIdentity {
    /// The calling thread's `pthread_self()` as a number, never 0 while the thread runs.
    @inlinable
    public static var current: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
