import CMicroHTTPD
import Locking

/// One open Server-Sent-Events response. The application pushes frames into it from any thread;
/// libmicrohttpd pulls them out on its polling thread.
///
/// Its state is behind a `Lock`: the polling thread, the application's
/// threads and the connection watch all take it.
///
/// When the queue is empty the connection is *suspended* inside the content reader (a reader that
/// returns 0 would make libmicrohttpd spin) and resumed by the next push. Resumption happens only
/// under the stream's lock and only while the stream is marked suspended; libmicrohttpd never
/// closes a suspended connection except in `MHD_stop_daemon`, and the stream forgets its connection
/// (under the same lock) when libmicrohttpd frees the response, so a resume can never reach a freed
/// connection.
///
/// The queue is bounded: a client that does not read fast enough to keep it under
/// ``ServerConfiguration/eventStreamQueueLimit`` bytes is disconnected rather than allowed to grow
/// memory without bound.
///
/// An idle stream keeps little of its connection's memory resident: the first time it goes idle,
/// the pages of the reader's buffer past what it wrote go back to the kernel (``ScratchPages``).
public final class EventStream: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var readOffset = 0
        var connection: ConnectionHandle?
        /// The reply, until the reader first runs: its head is written by then, and its headers
        /// are dropped (``dropHeadersOnceWritten(of:)``).
        var replyWithHeaders: ResponseHandle?
        var isSuspended = false
        var isClosing = false
        var isFinished = false
        var overflowed = false
        /// The client hung up (or its connection failed) while the stream waited.
        var clientGone = false
        /// What runs when the stream ends, in the order registered. Most streams have one action,
        /// kept inline; an array of closures would also wrap each in a context of its own.
        var firstAction: (@Sendable () -> Void)?
        var moreActions: [TerminationAction] = []
        /// The server's books of open streams, told first when the stream ends.
        weak var books: (any EventStreamBooks)?
        var scratch = ScratchPages()
    }

    /// A termination action in a struct, so that an array stores the closure as it is.
    private struct TerminationAction {
        let run: @Sendable () -> Void
    }

    private let state: Lock<State>
    /// The loop of the daemon serving the connection: resumes go through it.
    private let loop: PollingLoop
    private let settings: EventStreamSettings
    /// The `Last-Event-ID` the client sent when reconnecting, if any.
    public let lastEventID: String?

    /// The most bytes this stream queues before it disconnects its client as too slow
    /// (`--sse-queue-bytes`): what a catch-up sent at once must stay well within.
    public var queueLimit: Int { settings.queueLimit }

    init(
        connection: OpaquePointer,
        loop: PollingLoop,
        settings: EventStreamSettings,
        lastEventID: String?,
        books: (any EventStreamBooks)? = nil
    ) {
        var initial = State(connection: ConnectionHandle(pointer: connection))
        initial.books = books
        state = Lock(initial)
        self.loop = loop
        self.settings = settings
        self.lastEventID = lastEventID
    }

    /// Sends one event: `id:` and `event:` lines when given, then the data, one `data:` line per
    /// line of `data`, and a blank line.
    public func send(data: String, event: String? = nil, id: String? = nil) {
        send(ServerSentEvent(data: data, event: event, id: id))
    }

    /// Sends an event formatted once, for example to send it to many streams.
    public func send(_ event: ServerSentEvent) {
        enqueue(event.frame)
    }

    /// Sends a comment line (`: text`), which clients ignore; it keeps proxies and the connection alive.
    public func sendComment(_ text: String) {
        enqueue(": \(Self.singleLine(text))\n\n")
    }

    /// Tells the client how long to wait before reconnecting (`retry:`).
    public func sendRetry(milliseconds: Int) {
        enqueue("retry: \(milliseconds)\n\n")
    }

    /// Ends the stream after the frames already queued have been sent.
    public func close() {
        state.withLock { state in
            state.isClosing = true
            resumeLocked(&state)
        }
    }

    /// Whether the reader found the queue empty and suspended the connection until the next frame.
    var isIdle: Bool { state.withLock { $0.isSuspended } }

    /// The bytes the queue has room for without allocating (0 while idle), for tests.
    var queueCapacity: Int { state.withLock { $0.pending.capacity } }

    /// Whether the stream has ended (closed and drained, dropped, or the client went away).
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Registers `action` to run once when the stream ends for any reason — the place to dispose
    /// the subscriptions feeding it. Runs at once if the stream has already ended.
    public func onTermination(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.isFinished { return true }
            if state.firstAction == nil {
                state.firstAction = action
            } else {
                state.moreActions.append(TerminationAction(run: action))
            }
            return false
        }
        if runNow { action() }
    }

    private func enqueue(_ frame: String) {
        let outcome = state.withLock { state -> EnqueueOutcome in
            guard !state.isClosing, !state.isFinished else { return .dropped }
            defer { resumeLocked(&state) }
            if state.pending.count - state.readOffset + frame.utf8.count > settings.queueLimit {
                // The slow-client policy: a client that lets its queue grow past the limit is
                // disconnected (and may reconnect with Last-Event-ID), never buffered without bound.
                state.overflowed = true
                state.isClosing = true
                state.pending = []
                state.readOffset = 0
                return .overflowed
            }
            state.pending.append(contentsOf: frame.utf8)
            return .queued
        }
        switch outcome {
        case .queued: settings.metrics.framesSent.increment()
        case .dropped: settings.metrics.framesDropped.increment()
        case .overflowed:
            settings.metrics.framesDropped.increment()
            settings.metrics.slowClientsClosed.increment()
        }
    }

    /// The client closed or reset the connection, or the kernel gave up on it, while the stream
    /// may be suspended (where libmicrohttpd would not notice): end the stream at once. Returns
    /// whether this was news (a reset can be reported more than once).
    @discardableResult
    func clientHungUp() -> Bool {
        state.withLock { state in
            guard !state.isFinished, !state.clientGone else { return false }
            state.clientGone = true
            state.isClosing = true
            state.pending = []
            state.readOffset = 0
            resumeLocked(&state)
            return true
        }
    }

    private enum EnqueueOutcome {
        case queued, dropped, overflowed
    }

    private func resumeLocked(_ state: inout State) {
        if state.isSuspended, let connection = state.connection {
            state.isSuspended = false
            loop.resume(connection.pointer)
        }
    }

    /// Makes the reader drop the headers of `reply` (the stream's own libmicrohttpd response,
    /// shared with no other connection) the first time it runs. libmicrohttpd has written the
    /// reply's head into the connection's memory by then and reads the headers no more, and a
    /// held stream would otherwise keep three allocations per header for its whole life.
    func dropHeadersOnceWritten(of reply: OpaquePointer) {
        state.withLock { $0.replyWithHeaders = ResponseHandle(pointer: reply) }
    }

    /// The content reader: copies queued bytes into `buffer`, or suspends the connection when
    /// there are none. Called by libmicrohttpd on its polling thread.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        var releaseFrom: Int?
        var reply: ResponseHandle?
        let result = state.withLock { state -> Int in
            reply = state.replyWithHeaders
            state.replyWithHeaders = nil
            let available = state.pending.count - state.readOffset
            if available > 0 && !state.clientGone {
                let count = min(available, capacity)
                state.pending.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(
                        from: bytes.baseAddress! + state.readOffset,
                        byteCount: count
                    )
                }
                state.readOffset += count
                state.scratch.wrote(count, into: buffer, capacity: capacity)
                settings.metrics.bytesSent.increment(by: count)
                if state.readOffset == state.pending.count {
                    state.pending.removeAll(keepingCapacity: state.pending.capacity <= 16 * 1024)
                    state.readOffset = 0
                }
                return count
            }
            if state.overflowed || state.clientGone { return rp_reader_end_with_error() }
            if state.isClosing { return rp_reader_end_of_stream() }
            if let connection = state.connection {
                state.isSuspended = true
                MHD_suspend_connection(connection.pointer)
            }
            // Nothing is queued: an idle stream holds no queue buffer (the next frame makes one).
            if state.pending.capacity > 0 { state.pending = [] }
            releaseFrom = state.scratch.releaseOffset(buffer, capacity: capacity)
            return 0
        }
        // The stream goes idle. Until libmicrohttpd calls this reader again (on this thread) the
        // buffer is scratch that nobody reads; most of it is the connection memory that held the
        // request's head, which libmicrohttpd zeroed (so touched) when the reply began.
        if let releaseFrom { rp_release_scratch_pages(buffer + releaseFrom, capacity - releaseFrom) }
        if let reply { rp_response_drop_headers(reply.pointer) }
        return result
    }

    /// Called when libmicrohttpd frees the response: the client is gone or the stream ended.
    func finish() {
        let ended = state.withLock { state -> (books: (any EventStreamBooks)?, first: (@Sendable () -> Void)?, more: [TerminationAction])? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.isClosing = true
            state.connection = nil
            state.replyWithHeaders = nil
            state.isSuspended = false
            state.pending = []
            defer {
                state.firstAction = nil
                state.moreActions = []
            }
            return (state.books, state.firstAction, state.moreActions)
        }
        guard let ended else { return }
        ended.books?.eventStreamEnded(self)
        ended.first?()
        for action in ended.more { action.run() }
    }

    static func singleLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? text.filter { !$0.isNewline } : text
    }
}

/// What every event stream of a server shares, in one object: each stream keeps one reference
/// instead of a copy of each (a held stream's object then fits a 64-byte heap chunk, not 80).
final class EventStreamSettings: Sendable {
    /// The most bytes a stream queues for a slow client before it is disconnected.
    let queueLimit: Int
    let metrics: ServerMetrics

    init(queueLimit: Int, metrics: ServerMetrics) {
        self.queueLimit = queueLimit
        self.metrics = metrics
    }
}

/// What keeps the books of a server's open streams: told once when each one ends, before the
/// stream's own termination actions run. The stream holds it weakly.
protocol EventStreamBooks: AnyObject, Sendable {
    func eventStreamEnded(_ stream: EventStream)
}

/// What an idle stream gives back of its content reader's buffer (`EventStream.read`).
///
/// libmicrohttpd hands the reader of a chunked reply all of the connection's free memory as its
/// buffer: for the playground's 20 KiB connections, about 19 KiB, half of which it zeroed (so
/// touched) when the reply began, and an idle stream would keep all of it resident. The first time
/// the stream goes idle with a buffer, the whole pages past what has been written into it go back
/// to the kernel, once: later frames that reach past that point bring their pages back, and those
/// are kept, as the stream's working set. So a stream costs one `madvise` in its life (one per
/// buffer libmicrohttpd hands over, which in 0.9.75 is one per reply), and no event pays a page
/// fault or a release it did not pay before.
struct ScratchPages {
    /// The buffer last handed to the reader.
    private var start: UInt = 0
    /// Its size, and the most bytes written into it by one read (what the reader copied, and the
    /// chunk's CRLF). Both lie within a connection's memory, so 32 bits hold them, and with them
    /// a stream's locked state fits a 128-byte heap chunk instead of 144.
    private var capacity: UInt32 = 0
    private var reach: UInt32 = 0
    private var isReleased = false

    /// Records `count` bytes of frames written into `buffer`; libmicrohttpd adds two (the chunk's
    /// closing CRLF) after them.
    mutating func wrote(_ count: Int, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) {
        handOver(buffer, capacity: capacity)
        reach = max(reach, UInt32(clamping: min(count + 2, capacity)))
    }

    /// Where in `buffer` the pages to give back begin, the first time the stream goes idle with
    /// it; `nil` when they have been given back already.
    mutating func releaseOffset(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int? {
        handOver(buffer, capacity: capacity)
        guard !isReleased else { return nil }
        isReleased = true
        return Int(reach)
    }

    private mutating func handOver(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) {
        let address = UInt(bitPattern: buffer)
        let size = UInt32(clamping: capacity)
        guard address != start || size != self.capacity else { return }
        start = address
        self.capacity = size
        reach = 0
        isReleased = false
    }
}

/// One Server-Sent Event, formatted once: `id:` and `event:` lines when given, one `data:` line per
/// line of data (so multi-line data cannot end the event early), and the blank line that ends it.
public struct ServerSentEvent: Sendable {
    /// The event as sent on the wire.
    public let frame: String

    /// Formats an event.
    public init(data: String, event: String? = nil, id: String? = nil) {
        var frame = ""
        if let id { frame += "id: \(EventStream.singleLine(id))\n" }
        if let event { frame += "event: \(EventStream.singleLine(event))\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            frame += "data: \(line)\n"
        }
        frame += "\n"
        self.frame = frame
    }
}

/// A libmicrohttpd connection pointer. It crosses threads only inside an ``EventStream``'s lock,
/// which is what makes suspending and resuming it safe.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
