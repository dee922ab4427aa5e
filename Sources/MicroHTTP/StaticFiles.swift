import Foundation
import Locking

/// Serves files from one root folder, and never anything outside it.
///
/// A request path is percent-decoded strictly, then refused with 403 `forbidden_path` if any segment
/// is `..`, `.` or hidden (starts with a dot), or the path holds a backslash or a NUL byte. The
/// resolved file's real path (symbolic links followed) must still lie inside the root's real path,
/// or the answer is 403 too; a missing file is 404 `not_found`. `/` and folder paths serve
/// `index.html`.
///
/// Each file is read once and kept as a ``PreparedResponse`` (a cached libmicrohttpd response served
/// about three times the requests per second of reading the file each time), re-read when its size
/// or modification time changes. Responses carry `ETag`, `Last-Modified` and `Cache-Control:
/// no-cache` (revalidate every time: the page has no build step to fingerprint its files), and a
/// matching `If-None-Match` or `If-Modified-Since` is answered 304.
public struct StaticFiles: Sendable {
    /// The root folder's real path (symbolic links resolved).
    public let root: String
    private let cache: FileCache

    /// Serves files under `root`, each response with `headers` too (a folder with a policy of its
    /// own: they replace the server's defaults of their names). Fails if `root` is not an existing
    /// folder.
    public init(root: String, headers: [(name: String, value: String)] = []) throws {
        guard let real = realPath(root), isDirectory(real) else {
            throw StaticFilesError.rootNotFound(root)
        }
        self.root = real
        cache = FileCache(headers: headers)
    }

    /// Answers a `GET` or `HEAD` for `request.rawPath`.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        // A path answered before needs only one stat to confirm its file is unchanged; resolving a
        // path (decoding, checks, realpath) costs a handful of system calls.
        let file: CachedFile
        if let cached = cache.file(forRawPath: request.rawPath) {
            file = cached
        } else {
            switch resolve(rawPath: request.rawPath) {
            case .failure(let failure):
                return failure.response
            case .success(let path):
                guard let loaded = cache.file(atPath: path, rawPath: request.rawPath) else {
                    return StaticFileFailure.notFound.response
                }
                file = loaded
            }
        }
        if file.isNotModified(for: request) {
            return HTTPResponse(
                status: 304,
                headers: [
                    ("ETag", file.etag), ("Last-Modified", file.lastModified),
                    ("Cache-Control", "no-cache"),
                ]
            )
        }
        return file.prepared.response
    }

    /// The real path of the file that `rawPath` names inside the root, or why there is none.
    public func resolve(rawPath: String) -> Result<String, StaticFileFailure> {
        guard let decoded = PathDecoding.decode(rawPath) else { return .failure(.forbidden) }
        if decoded.contains("\0") || decoded.contains("\\") { return .failure(.forbidden) }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment.hasPrefix(".") { return .failure(.forbidden) }
            segments.append(segment)
        }
        var candidate = ([root] + segments.map(String.init)).joined(separator: "/")
        if decoded.hasSuffix("/") || segments.isEmpty || isDirectory(candidate) {
            candidate += "/index.html"
        }
        guard let real = realPath(candidate) else { return .failure(.notFound) }
        guard real.hasPrefix(root + "/") else { return .failure(.forbidden) }
        guard isRegularFile(real) else { return .failure(.notFound) }
        return .success(real)
    }

    /// The Content-Type for a file, by extension; text types carry `charset=utf-8`.
    public static func contentType(forPath path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "ico": return "image/x-icon"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}

/// Why a static file was not served.
public enum StaticFileFailure: Error, Sendable, Equatable {
    /// The path tries to leave the root or names a hidden file: 403 `forbidden_path`.
    case forbidden
    /// No such file: 404 `not_found`.
    case notFound

    /// The JSON error response for this failure.
    public var response: HTTPResponse {
        switch self {
        case .forbidden:
            .error(status: 403, code: "forbidden_path", message: "That path is not allowed.")
        case .notFound:
            .error(status: 404, code: "not_found", message: "No such file.")
        }
    }
}

/// Errors setting up static file serving.
public enum StaticFilesError: Error, CustomStringConvertible {
    /// The root folder does not exist.
    case rootNotFound(String)

    /// A description for people and logs.
    public var description: String {
        switch self {
        case .rootNotFound(let path): "static files folder not found: \(path)"
        }
    }
}

private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

private func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

private func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
}

/// Files read into prepared responses, keyed by real path and by the request paths that resolved to
/// them; valid while the file's size and modification time are unchanged.
private final class FileCache: Sendable {
    private struct State {
        var files: [String: CachedFile] = [:]
        var resolved: [String: String] = [:]  // raw request path -> real path, each checked once
    }

    private let state = Lock(State())
    private static let maxResolvedPaths = 1_024
    /// Sent with every file, after the file's own headers.
    let headers: [(name: String, value: String)]

    init(headers: [(name: String, value: String)]) {
        self.headers = headers
    }

    /// The file a request path resolved to before, if it is still there and unchanged.
    func file(forRawPath rawPath: String) -> CachedFile? {
        guard
            let (path, cached) = state.withLock({ state -> (String, CachedFile?)? in
                guard let path = state.resolved[rawPath] else { return nil }
                return (path, state.files[path])
            }), let cached, cached.version == Self.version(ofPath: path)
        else { return nil }
        return cached
    }

    /// Reads (or reuses) the file at the real `path`, remembering that `rawPath` names it.
    func file(atPath path: String, rawPath: String) -> CachedFile? {
        guard let version = Self.version(ofPath: path) else { return nil }
        if let cached = state.withLock({ $0.files[path] }), cached.version == version {
            remember(rawPath, path)
            return cached
        }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let file = CachedFile(path: path, version: version, body: Array(data), headers: headers)
        state.withLock { $0.files[path] = file }
        remember(rawPath, path)
        return file
    }

    private func remember(_ rawPath: String, _ path: String) {
        state.withLock { state in
            // Bounded: request paths come from clients, and `/a`, `//a`, `/a/` all name one file.
            if state.resolved.count >= Self.maxResolvedPaths { state.resolved.removeAll() }
            state.resolved[rawPath] = path
        }
    }

    private static func version(ofPath path: String) -> FileVersion? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileVersion(
            size: Int(info.st_size),
            modifiedSeconds: Int(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int(info.st_mtim.tv_nsec)
        )
    }
}

private struct FileVersion: Equatable, Sendable {
    let size: Int
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
}

private struct CachedFile: Sendable {
    let version: FileVersion
    let etag: String
    let lastModified: String
    let prepared: PreparedResponse

    init(path: String, version: FileVersion, body: [UInt8], headers: [(name: String, value: String)]) {
        self.version = version
        etag =
            "\"\(String(version.size, radix: 16))-\(String(version.modifiedSeconds, radix: 16))-\(String(version.modifiedNanoseconds, radix: 16))\""
        lastModified = httpDate(version.modifiedSeconds)
        prepared = PreparedResponse(
            headers: [
                ("Content-Type", StaticFiles.contentType(forPath: path)),
                ("Cache-Control", "no-cache"),
                ("ETag", etag),
                ("Last-Modified", lastModified),
            ] + headers,
            body: body
        )
    }

    /// Whether a conditional request already has this version (If-None-Match first, as RFC 9110 says).
    func isNotModified(for request: HTTPRequest) -> Bool {
        if let tags = request.header("If-None-Match") {
            return tags == "*"
                || tags.split(separator: ",").contains {
                    let tag = $0.trimmingCharacters(in: .whitespaces)
                    return tag == etag || tag == "W/" + etag
                }
        }
        if let since = request.header("If-Modified-Since") {
            return since == lastModified
        }
        return false
    }
}

/// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for `seconds` since 1970.
private func httpDate(_ seconds: Int) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
