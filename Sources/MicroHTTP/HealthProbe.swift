import Foundation

/// A dependency-free HTTP probe for container health checks (the runtime image has no curl):
/// connects to a server, asks for one path with `GET`, and reports whether it answered `200` with
/// the expected body.
public enum HealthProbe {
    /// Whether the server at `host`:`port` answers `GET path` with status 200 and body `body`
    /// within `timeoutSeconds`. A wildcard host (`0.0.0.0`, `::`) is probed over loopback.
    public static func check(
        host: String,
        port: UInt16,
        path: String = "/healthz",
        body expected: String = "ok",
        timeoutSeconds: Int = 3
    ) -> Bool {
        let target = host == "0.0.0.0" || host.isEmpty ? "127.0.0.1" : (host == "::" ? "::1" : host)
        guard let address = try? SocketAddress(host: target, port: port) else { return false }
        let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(fd, $0, address.length) }) == 0 else { return false }
        let request = "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        guard request.withCString({ send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return false }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while response.count < 16_384 {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        return text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("\r\n\r\n" + expected)
    }
}
