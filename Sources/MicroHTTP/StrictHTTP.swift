import Foundation

/// Request heads that a strict server refuses, checked from the parsed header fields before
/// anything else: the ambiguities that let a body carry a second, smuggled request past a proxy
/// that reads the message differently. Each refusal closes the connection (`Connection: close`), so
/// nothing after the head on that connection is read as a request.
///
/// libmicrohttpd 0.9.75 parses the head itself and cannot be made to refuse bare LF line ends or
/// obsolete line folding (it accepts the first and joins folded lines), so those are not checked
/// here; docs/API.md says so.
enum StrictHTTP {
    /// The refusal for a head with these fields, or `nil` when it is unambiguous.
    static func refusal(of fields: [(name: String, value: String)]) -> HTTPResponse? {
        var contentLengths = 0
        var transferEncodings: [String] = []
        for (name, value) in fields {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                return malformed("A header field name is not a token (whitespace before the colon?).")
            }
            if name.utf8.count == 14, name.lowercased() == "content-length" { contentLengths += 1 }
            if name.utf8.count == 17, name.lowercased() == "transfer-encoding" { transferEncodings.append(value) }
        }
        if contentLengths > 1 {
            return malformed("Content-Length is sent more than once.")
        }
        if contentLengths > 0 && !transferEncodings.isEmpty {
            return malformed("Content-Length and Transfer-Encoding are both sent.")
        }
        if !transferEncodings.isEmpty {
            let codings = transferEncodings.joined(separator: ",").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings == ["chunked"] else {
                var response = HTTPResponse.error(
                    status: 501,
                    code: "not_implemented",
                    message: "The only transfer coding this server reads is chunked."
                )
                response.addHeader("Connection", "close")
                return response
            }
        }
        return nil
    }

    private static func malformed(_ message: String) -> HTTPResponse {
        var response = HTTPResponse.error(status: 400, code: "malformed_request", message: message)
        response.addHeader("Connection", "close")
        return response
    }

    /// RFC 9110 `tchar`: `!#$%&'*+-.^_`|~`, digits and letters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
