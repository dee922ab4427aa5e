import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging

/// How a request goes through the server on the polling thread: admitted or refused from its head,
/// its body read within the limit, routed, answered at once or deferred to another thread, and
/// its response written.
extension ServerCore {
    // MARK: Requests (polling thread)

    func handle(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = requestState.pointee else {
            if closesAfterOneRequest(connection) { _ = rp_connection_close_after_reply(connection) }
            let query = query(of: connection)
            var head = HTTPRequest(
                method: HTTPMethod(rawValue: String(cString: method)),
                rawPath: String(cString: url),
                query: query ?? [:],
                headerFields: headerFields(of: connection),
                clientAddress: effectiveClientAddress(of: connection)
            )
            let refusal =
                StrictHTTP.refusal(of: head.headerFields)
                ?? (query == nil ? Self.invalidQuery : preflight?(&head))
            let context = RequestContext(head: head, isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false)
            requestState.pointee = Unmanaged.passRetained(context).toOpaque()
            if let busy = admit(context) {
                metrics.refusedBusy.increment()
                return respond(busy, to: context, on: connection)
            }
            if let refusal {
                return respond(refusal, to: context, on: connection)
            }
            if rp_connection_head_size(connection) > configuration.maxRequestHeadBytes {
                metrics.headsTooLarge.increment()
                return respond(
                    .error(
                        status: 431,
                        code: "headers_too_large",
                        message: "The request head is larger than \(configuration.maxRequestHeadBytes) bytes."
                    ),
                    to: context,
                    on: connection
                )
            }
            if let length = head.header("Content-Length").flatMap(Int.init), length > configuration.maxBodyBytes {
                return respond(tooLarge(), to: context, on: connection)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if context.responded { return .YES }
            // libmicrohttpd 0.9.x cannot queue a response in the middle of a body, so an oversized
            // chunked body is discarded as it arrives (never buffered) and answered 413 at its end;
            // a client that keeps sending far past the limit is disconnected instead.
            if context.discardedBytes > 0 || context.bodyCount + size > configuration.maxBodyBytes {
                context.discardBody(andMore: size)
                return context.discardedBytes > configuration.maxBodyBytes + Self.discardAllowance ? .NO : .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                    context.appendBody(UnsafeBufferPointer(start: $0, count: size))
                }
            }
            return .YES
        }
        if context.responded { return .YES }
        if let deferred = context.deferred {
            // Called again after the resume: the response computed elsewhere is ready. It stays
            // pending (for shutdown's wait) until the request completes.
            let response =
                deferred.takeResponse()
                ?? .error(status: 500, code: "internal_error", message: "The response was never computed.")
            return respond(response, to: context, on: connection)
        }
        if context.discardedBytes > 0 { return respond(tooLarge(), to: context, on: connection) }
        var request = context.head
        request.body = context.takeBody()
        let response = handler(request)
        if case .deferred(let start) = response.body { return deferResponse(start, context: context, on: connection) }
        return respond(response, to: context, on: connection)
    }

    static let shuttingDown = HTTPResponse.error(status: 503, code: "server_busy", message: "The server is shutting down.")

    /// Suspends the connection while `start`'s worker computes the response; its completion
    /// resumes the connection, and libmicrohttpd calls the handler again to queue it.
    private func deferResponse(
        _ start: @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void,
        context: RequestContext,
        on connection: OpaquePointer
    ) -> MHD_Result {
        let daemon = rp_connection_daemon(connection)
        guard let loop = state.withLock({ state in state.loops.first { $0.daemon.pointer == daemon } }) else {
            return respond(Self.shuttingDown, to: context, on: connection)
        }
        let deferred = DeferredResponse(connection: connection, loop: loop)
        let registered = state.withLock { state -> Bool in
            guard !state.isStopping else { return false }
            state.deferred[ObjectIdentifier(deferred)] = deferred
            return true
        }
        guard registered else { return respond(Self.shuttingDown, to: context, on: connection) }
        if let record = Self.record(of: connection) { watch.answering(record) }  // the request is in: no deadline
        context.deferred = deferred
        MHD_suspend_connection(connection)
        start { response in deferred.complete(with: response) }
        return .YES
    }

    /// Applies the connection caps: 503 `server_busy` beyond ``ServerConfiguration/maxConnections``,
    /// 429 beyond ``ServerConfiguration/maxConnectionsPerClient``. Counts the request in progress.
    private func admit(_ context: RequestContext) -> HTTPResponse? {
        if metrics.connectionCount > configuration.maxConnections {
            return HTTPResponse.error(
                status: 503,
                code: "server_busy",
                message: "The server has as many connections as it accepts; try again shortly.",
                retryAfterSeconds: 5
            )
        }
        guard let limit = configuration.maxConnectionsPerClient else { return nil }
        let client = context.clientAddress
        let admitted = state.withLock { state -> Bool in
            guard state.inFlightPerClient[client, default: 0] < limit else { return false }
            state.inFlightPerClient[client, default: 0] += 1
            return true
        }
        guard admitted else {
            return HTTPResponse.error(
                status: 429,
                code: "rate_limited",
                message: "Too many connections from your address; close some and retry.",
                retryAfterSeconds: 5
            )
        }
        context.isCountedForClient = true
        return nil
    }

    /// A connection opened: counted, given its request deadline and TCP liveness options; its
    /// record becomes the connection's socket context.
    /// Whether `connection` is held by a daemon with an event stream's smaller connection memory
    /// (see ``ConnectionSorter``), which a later request's head might not fit.
    private func closesAfterOneRequest(_ connection: OpaquePointer) -> Bool {
        guard let daemon = rp_connection_daemon(connection) else { return false }
        return state.withLock { state in state.loops.contains { $0.daemon.pointer == daemon && $0.closesAfterOneRequest } }
    }

    func connectionOpened(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        metrics.connectionOpened()
        let peer = rp_connection_client_address(connection).map(SocketAddress.describe) ?? ""
        let record = watch.opened(socket: rp_connection_fd(connection), peer: peer)
        socketContext.pointee = Unmanaged.passRetained(record).toOpaque()
    }

    /// libmicrohttpd is about to close the connection's socket.
    func connectionClosed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        metrics.connectionClosed()
        guard let pointer = socketContext.pointee else { return }
        socketContext.pointee = nil
        watch.closed(Unmanaged<ConnectionWatch.Record>.fromOpaque(pointer).takeRetainedValue())
    }

    /// The connection's record (valid while the connection is open).
    static func record(of connection: OpaquePointer) -> ConnectionWatch.Record? {
        rp_connection_socket_context(connection).map { Unmanaged<ConnectionWatch.Record>.fromOpaque($0).takeUnretainedValue() }
    }

    /// A message from libmicrohttpd itself (see `microhttpdLogCallback`).
    func logLibraryMessage(_ message: String) {
        logger.debug("libmicrohttpd: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
    }

    /// The request on `connection` is over: the connection waits for its next request.
    func requestEnded(on connection: OpaquePointer) {
        if let record = Self.record(of: connection) { watch.waitingForRequest(record) }
    }

    func completed(_ context: RequestContext) {
        if let deferred = context.deferred {
            deferred.forget()
            _ = state.withLock { $0.deferred.removeValue(forKey: ObjectIdentifier(deferred)) }
        }
        metrics.responded(status: Int(context.status))
        if context.isCountedForClient {
            let client = context.clientAddress
            state.withLock { state in
                state.inFlightPerClient[client, default: 1] -= 1
                if state.inFlightPerClient[client] == 0 { state.inFlightPerClient[client] = nil }
            }
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - context.started.uptimeNanoseconds) / 1e6
        logger.info(
            "\(context.method) \(configuration.accessLogPath(context.path)) \(context.status)",
            metadata: [
                "bytes": "\(context.bytesSent)",
                "ms": "\((milliseconds * 10).rounded() / 10)",
            ]
        )
    }

    private func tooLarge() -> HTTPResponse {
        .error(
            status: 413,
            code: "payload_too_large",
            message: "The request body is larger than \(configuration.maxBodyBytes) bytes."
        )
    }

    private func respond(_ response: HTTPResponse, to context: RequestContext, on connection: OpaquePointer) -> MHD_Result {
        context.responded = true
        if let record = Self.record(of: connection) { watch.answering(record) }
        context.status = UInt16(clamping: response.status)
        switch response.body {
        case .bytes, .prepared:
            metrics.answered(afterNanoseconds: DispatchTime.now().uptimeNanoseconds - context.started.uptimeNanoseconds)
        case .deferred, .eventStream:
            break  // the real response is recorded; a stream's time is how long its client watches
        }
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            context.bytesSent = bytes.count
            metrics.bytesSent.increment(by: bytes.count)
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count,
                    UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                    .RESPMEM_MUST_COPY
                )
            }
        case .prepared(let prepared):
            context.bytesSent = prepared.body.count
            metrics.bytesSent.increment(by: prepared.body.count)
            // Built once with every header, then queued again and again: libmicrohttpd counts
            // its references, so no copy is made per request.
            let handle = prepared.handle(defaultHeaders: configuration.defaultHeaders)
            return MHD_queue_response(connection, UInt32(response.status), handle.pointer)
        case .deferred:
            // A deferred response must complete with a real one.
            return respond(
                .error(status: 500, code: "internal_error", message: "The response was never computed."),
                to: context,
                on: connection
            )
        case .eventStream(let open):
            if context.method == .head {
                mhdResponse = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            } else if let stream = openEventStream(on: connection) {
                stream.sendRetry(milliseconds: 2_000)
                open(stream)
                let retained = Unmanaged.passRetained(stream)
                mhdResponse = MHD_create_response_from_callback(
                    rp_size_unknown(),
                    // libmicrohttpd allocates this block with every response, but fills it only
                    // for an HTTP/1.0 client, which gets no chunked encoding; a chunked reply is
                    // read straight into the connection's buffer, so it needs next to none.
                    context.isHTTP10 ? 1_024 : 16,
                    eventStreamReadCallback,
                    retained.toOpaque(),
                    eventStreamFreeCallback
                )
                if let mhdResponse {
                    stream.dropHeadersOnceWritten(of: mhdResponse)
                } else {
                    // libmicrohttpd could not allocate it, so it will never free it: end it here.
                    retained.release()
                    stream.finish()
                }
            } else {
                return respond(
                    .error(status: 503, code: "server_busy", message: "The server is shutting down."),
                    to: context,
                    on: connection
                )
            }
        }
        guard let mhdResponse else { return .NO }
        // A 431's head left little of the connection's memory: without the default headers the
        // answer still fits where with them libmicrohttpd would close the connection unanswered.
        let defaultHeaders = response.status == 431 ? [] : configuration.defaultHeaders
        for (name, value) in headers(response.headers, over: defaultHeaders) {
            MHD_add_response_header(mhdResponse, name, value)
        }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        context.releaseHead()
        return result
    }
}
