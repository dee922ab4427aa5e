import Foundation

/// A minimal HTTP/1.1 client over a plain socket, so tests can send exactly the bytes they mean
/// (`..` and `%2e%2e` unnormalized, bodies without Content-Length) and read streams as they arrive.
final class RawHTTPClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Int = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw ClientError.connectFailed
        }
    }

    deinit { close(fd) }

    /// Makes closing send a reset (RST) instead of a FIN, as a killed process's socket may.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    enum ClientError: Error { case connectFailed, closed, timedOut }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads until `predicate` holds for everything received so far, or the peer closes, or the timeout.
    @discardableResult
    func read(until predicate: (String) -> Bool) -> String {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !predicate(String(decoding: buffer, as: UTF8.self)) {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            buffer += chunk[0..<count]
        }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Reads until the peer closes the connection (or the timeout).
    func readToEnd() -> String {
        read { _ in false }
    }

    /// Whether the peer closed the connection (a read returns 0) within the timeout.
    func waitForClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return false }
            buffer += chunk[0..<count]
        }
    }

    /// Whether the peer ended the connection, with a close or a reset, within the timeout.
    func waitForEnd() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
            buffer += chunk[0..<count]
        }
    }

    /// Sends a request with `Connection: close` and returns the whole response.
    static func request(_ port: UInt16, _ method: String, _ path: String, headers: [String] = [], body: String? = nil) throws -> RawResponse {
        let client = try RawHTTPClient(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        client.send(head + "\r\n" + (body ?? ""))
        return RawResponse(client.readToEnd())
    }
}

/// A parsed response: status, headers (lower-cased names) and body.
struct RawResponse {
    let status: Int
    let headers: [String: String]
    let body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
        let lines = head.components(separatedBy: "\r\n")
        status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
    }
}
