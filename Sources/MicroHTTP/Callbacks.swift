import CMicroHTTPD
import Glibc

// The C callbacks libmicrohttpd calls on its own threads. They are plain global functions (never
// closures in main.swift, which Swift 6 would isolate to the main actor and trap on another
// thread), and they only forward to Sendable objects.

func accessHandlerCallback(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?,
    uploadData: UnsafePointer<CChar>?,
    uploadDataSize: UnsafeMutablePointer<Int>?,
    requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestState else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    return core.handle(
        connection: connection,
        url: url,
        method: method,
        version: version,
        uploadData: uploadData,
        uploadDataSize: uploadDataSize,
        requestState: requestState
    )
}

func requestCompletedCallback(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    reason: MHD_RequestTerminationCode
) {
    guard let cls else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if let connection {
        core.requestEnded(on: connection)
        // Anything but a completed request means the connection is closing. When a content reader
        // ends with an error (a stream whose client left), libmicrohttpd 0.9.75 marks the
        // connection closed but does not queue it for cleanup: only its timeout scan finds it, and
        // that scan visits every connection only in the list of those with a timeout of their own.
        // One second puts it there and bounds the wait (a vanished crowd of event streams would
        // otherwise keep its sockets and memory until someone calls).
        if reason != .REQUEST_TERMINATED_COMPLETED_OK { _ = rp_connection_set_timeout(connection, 1) }
    }
    guard let pointer = requestState?.pointee else { return }
    requestState?.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
    core.completed(context)
}

/// Leaves the URL as the client sent it: the router and static files decode it strictly themselves.
func keepEscapesCallback(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    string: UnsafeMutablePointer<CChar>?
) -> Int {
    guard let string else { return 0 }
    return strlen(string)
}

func eventStreamReadCallback(
    cls: UnsafeMutableRawPointer?,
    position: UInt64,
    buffer: UnsafeMutablePointer<CChar>?,
    capacity: Int
) -> Int {
    guard let cls, let buffer else { return rp_reader_end_with_error() }
    return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

func eventStreamFreeCallback(cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<EventStream>.fromOpaque(cls).takeRetainedValue().finish()
}

func collectValueCallback(
    cls: UnsafeMutableRawPointer?,
    kind: MHD_ValueKind,
    key: UnsafePointer<CChar>?,
    value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let box = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
    box.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// Collects key/value pairs from `MHD_get_connection_values`; used on one thread only.
final class PairCollector {
    var pairs: [(String, String)] = []
}

func connectionNotifyCallback(
    cls: UnsafeMutableRawPointer?,
    connection: OpaquePointer?,
    socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    code: MHD_ConnectionNotificationCode
) {
    guard let cls, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        guard let connection else { return }
        core.connectionOpened(connection, socketContext: socketContext)
    } else {
        core.connectionClosed(socketContext: socketContext)
    }
}

/// libmicrohttpd's own messages (malformed requests, failed allocations, closed sockets), at debug
/// level: most are caused by clients, and a warning per bad request would let anyone flood the log.
@_cdecl("rp_microhttpd_log")
func microhttpdLogCallback(cls: UnsafeMutableRawPointer?, message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    core.logLibraryMessage(String(cString: message))
}
