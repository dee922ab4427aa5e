import Foundation
import MicroHTTP

/// What an embed shows: a gallery entry (perhaps with variants to compare it with) or a shared
/// program, read from one of this playground's addresses — the page's (`/#gallery/ID`,
/// `/#gallery/ID/compare=…`, `/#program=…`) or the embed's own (`/embed/gallery/ID?compare=…`,
/// `/embed/program?p=…`). The encoded parts are base64url text, as the page writes them.
enum EmbedTarget: Equatable {
    case entry(id: String, compare: String?)
    case program(encoded: String)

    /// The longest encoded part accepted: a program of 64 KiB, encoded.
    static let maximumEncodedLength = 90_000

    /// Reads `url`, which must be an `http`/`https` address of the server `host` names (the
    /// request's `Host`); `nil` for anything else, or for an entry the gallery does not have.
    init?(url: String, host: String?, gallery: GalleryIndex) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let name = components.host, let host
        else { return nil }
        let authority = name + (components.port.map { ":\($0)" } ?? "")
        guard authority.lowercased() == host.lowercased() else { return nil }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        switch components.path {
        case "", "/":
            guard let fragment = components.fragment else { return nil }
            if let encoded = fragment.dropPrefix("program=") {
                self = .program(encoded: encoded)
            } else if let rest = fragment.dropPrefix("gallery/") {
                let parts = rest.components(separatedBy: "/compare=")
                guard parts.count <= 2 else { return nil }
                self = .entry(id: parts[0], compare: parts.count == 2 ? parts[1] : nil)
            } else {
                return nil
            }
        case "/embed/program":
            guard let encoded = query["p"] else { return nil }
            self = .program(encoded: encoded)
        case let path where path.hasPrefix("/embed/gallery/"):
            self = .entry(id: String(path.dropFirst("/embed/gallery/".count)), compare: query["compare"])
        default:
            return nil
        }
        switch self {
        case .entry(let id, let compare):
            guard gallery.entries[id] != nil, compare.map(Self.isEncodedText) ?? true else { return nil }
        case .program(let encoded):
            guard Self.isEncodedText(encoded) else { return nil }
        }
    }

    /// Base64url of UTF-8 text, of a bounded length.
    static func isEncodedText(_ encoded: String) -> Bool {
        guard (1...maximumEncodedLength).contains(encoded.utf8.count),
            encoded.utf8.allSatisfy({ byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
            })
        else { return false }
        var standard = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return false }
        return String(validating: Array(data), as: UTF8.self) != nil
    }

    /// The embed's path on this server.
    var embedPath: String {
        switch self {
        case .entry(let id, let compare): "/embed/gallery/\(id)" + (compare.map { "?compare=\($0)" } ?? "")
        case .program(let encoded): "/embed/program?p=\(encoded)"
        }
    }
}

extension String {
    /// The rest of the string after `prefix`, or `nil` when it does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}

extension API {
    /// The embed page's own policy: the one page other sites may frame. Everything else it may
    /// load is still this server's alone.
    static let embedHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy + "frame-ancestors *"),
        ("X-Frame-Options", ""),  // removes the default DENY (see ServerConfiguration.defaultHeaders)
    ]

    /// `GET /embed/gallery/{id}`, `GET /embed/program`: `embed.html`, which draws what its address
    /// names (the page checks it, as the full page does), framable by any site.
    func embedPage(_ request: HTTPRequest) -> HTTPResponse {
        let page = staticFiles.respond(to: HTTPRequest(method: .get, rawPath: "/embed.html"))
        guard case .prepared(let prepared) = page.body else { return page }
        let kept = prepared.headers.filter { $0.name == "Content-Type" || $0.name == "Cache-Control" }
        return HTTPResponse(status: 200, headers: kept + Self.embedHeaders, body: .bytes(prepared.body))
    }

    /// `GET /oembed?url=…&format=json&maxwidth=…&maxheight=…` (oEmbed 1.0): a `rich` answer whose
    /// `html` frames the embed of the gallery entry, comparison or shared program `url` names.
    func oEmbed(_ request: HTTPRequest) -> HTTPResponse {
        switch request.query["format"] ?? "json" {
        case "json": break
        case "xml": return PlaygroundError(.notImplemented, "oEmbed is answered in JSON only: format=json.").response
        default: return PlaygroundError(.invalidValue, "format is json (the only format answered).").response
        }
        var bounds: [Int] = []
        for name in ["maxwidth", "maxheight"] {
            guard let text = request.query[name] else {
                bounds.append(Int.max)
                continue
            }
            guard let value = OutsideNumbers.decimal(text), value.rounded() == value, (1...10_000).contains(value) else {
                return PlaygroundError(.invalidValue, "\(name) takes pixels, a whole number from 1 to 10000.").response
            }
            bounds.append(Int(value))
        }
        guard let url = request.query["url"], !url.isEmpty else {
            return PlaygroundError(.invalidValue, "url is required: the address of a gallery entry or a shared program here.").response
        }
        guard let target = EmbedTarget(url: url, host: request.header("Host"), gallery: gallery),
            let origin = URLComponents(string: url).flatMap({ components -> String? in
                guard let scheme = components.scheme, let host = components.host else { return nil }
                return "\(scheme.lowercased())://\(host)" + (components.port.map { ":\($0)" } ?? "")
            })
        else {
            return PlaygroundError(.notFound, "The url is not a gallery entry, comparison or shared program of this playground.").response
        }
        let title: String
        var height: Int
        switch target {
        case .entry(let id, _):
            let entry = gallery.entries[id]!
            title = "\(entry.name) — Reactive Playground operator gallery"
            height = 140 + 110 * entry.inputs + 90 * entry.outputs
        case .program:
            title = "A program — Reactive Playground"
            height = 480
        }
        let width = min(720, bounds[0])
        height = min(height, bounds[1])
        let html =
            "<iframe src=\"\(escaped(origin + target.embedPath))\" width=\"\(width)\" height=\"\(height)\" title=\"\(escaped(title))\" "
            + "loading=\"lazy\" style=\"border:0;max-width:100%\"></iframe>"
        return .json(
            OEmbed(title: title, provider_url: origin + "/", html: html, width: width, height: height)
        )
    }
}

/// An oEmbed 1.0 `rich` answer (field names as the specification spells them).
private struct OEmbed: Encodable {
    var version = "1.0"
    var type = "rich"
    let title: String
    var provider_name = "Reactive Playground"
    let provider_url: String
    let html: String
    let width: Int
    let height: Int
    var cache_age = 3_600
}

/// Text for an HTML attribute.
private func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}
