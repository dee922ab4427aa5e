/// How much connection memory libmicrohttpd 0.9.75 needs to serve one event-stream request, read
/// from a peek at the head before libmicrohttpd reads it (see ``ConnectionSorter``).
///
/// libmicrohttpd reads a head into the first half of the connection's memory and gives every
/// header field, query argument and cookie a record taken from the other end; when the head is
/// done it shrinks the read buffer to the head (whose fields the records point into), and the
/// reply's head is then written into what is free, and the chunks after it.
enum StreamHeadSizing {
    /// A record (`struct MHD_HTTP_Header`, 56 bytes) as libmicrohttpd's pool rounds it.
    static let recordBytes = 64
    /// libmicrohttpd's pool rounds every allocation up to this.
    static let alignment = 16
    /// The least buffer libmicrohttpd takes for a chunk of a chunked reply.
    static let chunkBufferBytes = 128
    /// The reply head a request can get besides the server's default headers: status line, `Date`,
    /// `Connection: close`, content type and length or `Transfer-Encoding`, a stream's
    /// `Cache-Control` and `X-Accel-Buffering`, a static file's `ETag`, `Last-Modified` and
    /// `Cache-Control`, an error's `Retry-After` (under 256 bytes together, and a margin; the tests check
    /// the largest replies the server sends against it).
    static let replyHeadBytesBesidesDefaults = 320

    /// The reply head allowed for with `defaultHeaders` (see ``ServerConfiguration/defaultHeaders``).
    static func replyHeadBytes(defaultHeaders: [(name: String, value: String)]) -> Int {
        defaultHeaders.reduce(replyHeadBytesBesidesDefaults) { sum, header in
            sum + header.name.utf8.count + header.value.utf8.count + 4  // ": " and CRLF
        }
    }

    /// The least connection memory that serves the request whose head starts `bytes`, or nil when
    /// it is not an event-stream request whose whole head is there: `GET` over HTTP/1.1 with
    /// `Accept: text/event-stream` and no body. `replyHeadBytes` is the largest reply head the
    /// server may send it. One record more is counted for the `Connection: close` the server
    /// adds (``ServerCore``).
    static func memoryNeeded(forHead bytes: UnsafeRawBufferPointer, replyHeadBytes: Int) -> Int? {
        guard let headLength = endOfHead(in: bytes) else { return nil }
        var lines = Lines(bytes: bytes, end: headLength)
        guard let requestLine = lines.next(), let arguments = queryArguments(ofRequestLine: requestLine) else { return nil }
        var records = 1 + arguments
        var asksForEventStream = false
        while let line = lines.next(), line.count > 0 {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex] != UInt8(ascii: " "), line[line.startIndex] != UInt8(ascii: "\t")
            else { return nil }  // folded or malformed: libmicrohttpd and StrictHTTP decide on the regular path
            let name = line[line.startIndex..<colon]
            let value = line[(colon + 1)...]
            records += 1
            if equalsIgnoringCase(name, "accept") {
                asksForEventStream = asksForEventStream || contains(value, "text/event-stream")
            } else if equalsIgnoringCase(name, "content-length") || equalsIgnoringCase(name, "transfer-encoding") {
                return nil
            } else if equalsIgnoringCase(name, "cookie") {
                records += value.count { $0 == UInt8(ascii: ";") } + 1
            }
        }
        guard asksForEventStream else { return nil }
        let head = rounded(headLength)
        let recordMemory = records * recordBytes
        return max(
            2 * head,  // the head fits the first read buffer, half the memory
            2 * recordMemory,  // ... and the records the other half
            head + recordMemory + max(replyHeadBytes, chunkBufferBytes)
        )
    }

    /// The length of the head (through its blank line), or nil if `bytes` does not hold all of it.
    static func endOfHead(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// The number of query arguments of an HTTP/1.1 `GET` request line, or nil for any other line.
    private static func queryArguments(ofRequestLine line: UnsafeRawBufferPointer.SubSequence) -> Int? {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, equalsIgnoringCase(parts[0], "GET"), parts[2].elementsEqual("HTTP/1.1".utf8) else {
            return nil
        }
        guard let mark = parts[1].firstIndex(of: UInt8(ascii: "?")) else { return 0 }
        let query = parts[1][(mark + 1)...]
        return query.isEmpty ? 0 : query.count { $0 == UInt8(ascii: "&") } + 1
    }

    private static func rounded(_ count: Int) -> Int { (count + alignment - 1) / alignment * alignment }

    private static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer.SubSequence, _ lowercase: StaticString) -> Bool {
        bytes.count == lowercase.utf8CodeUnitCount
            && zip(bytes, UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
                .allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
    }

    private static func contains(_ bytes: UnsafeRawBufferPointer.SubSequence, _ lowercase: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        guard bytes.count >= needle.count else { return false }
        var start = bytes.startIndex
        while start + needle.count <= bytes.endIndex {
            if zip(bytes[start..<(start + needle.count)], needle).allSatisfy({ ($0 | 0x20) == $1 }) { return true }
            start += 1
        }
        return false
    }

    /// The CRLF-ended lines of a head.
    private struct Lines {
        let bytes: UnsafeRawBufferPointer
        let end: Int
        var position = 0

        init(bytes: UnsafeRawBufferPointer, end: Int) {
            self.bytes = bytes
            self.end = end
        }

        mutating func next() -> UnsafeRawBufferPointer.SubSequence? {
            var index = position
            while index + 1 < end {
                if bytes[index] == 13 && bytes[index + 1] == 10 {
                    defer { position = index + 2 }
                    return bytes[position..<index]
                }
                index += 1
            }
            return nil
        }
    }
}
