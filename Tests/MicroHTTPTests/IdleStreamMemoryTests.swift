import CMicroHTTPD
import Foundation
import Testing

@testable import MicroHTTP

/// An idle event stream gives the pages of its content reader's buffer back to the kernel
/// (`ScratchPages`); frames sent afterwards must arrive whole, whatever they overwrite.
@Suite("Idle streams' memory")
struct IdleStreamMemoryTests {
    private static let page = Int(rp_page_size())

    @Test func releasingScratchPagesZeroesOnlyTheWholePagesInside() {
        let pages = 6
        let base = UnsafeMutableRawPointer.allocate(byteCount: pages * Self.page, alignment: Self.page)
        defer { base.deallocate() }
        base.initializeMemory(as: UInt8.self, repeating: 0xAB, count: pages * Self.page)
        // From 100 bytes into page 0 to 100 bytes before the end of page 4: pages 1 to 3 are whole.
        let released = rp_release_scratch_pages(base + 100, 5 * Self.page - 200)
        #expect(released == 3 * Self.page)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        #expect((0..<Self.page).allSatisfy { bytes[$0] == 0xAB })
        #expect((Self.page..<(4 * Self.page)).allSatisfy { bytes[$0] == 0 })
        #expect(((4 * Self.page)..<(pages * Self.page)).allSatisfy { bytes[$0] == 0xAB })
        // Nothing whole inside: nothing released.
        #expect(rp_release_scratch_pages(base + 100, Self.page) == 0)
        #expect(bytes[Self.page + 50] == 0)
    }

    @Test func pagesPastWhatWasWrittenAreReleasedOncePerBuffer() {
        let base = UnsafeMutableRawPointer.allocate(byteCount: 8 * Self.page, alignment: Self.page)
        defer { base.deallocate() }
        let buffer = (base + 96).assumingMemoryBound(to: CChar.self)
        let capacity = 6 * Self.page
        var scratch = ScratchPages()
        func releaseOffset(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int? {
            scratch.releaseOffset(buffer, capacity: capacity)
        }
        scratch.wrote(300, into: buffer, capacity: capacity)
        scratch.wrote(120, into: buffer, capacity: capacity)
        #expect(releaseOffset(buffer, capacity: capacity) == 302, "past the largest read and its CRLF")
        #expect(releaseOffset(buffer, capacity: capacity) == nil, "once")
        // A later, bigger frame brings its pages back; they stay, as the stream's working set.
        scratch.wrote(9_000, into: buffer, capacity: capacity)
        #expect(releaseOffset(buffer, capacity: capacity) == nil)
        // Another buffer is released anew, past what was written into it.
        #expect(releaseOffset(buffer + 8, capacity: capacity - 8) == 0)
        scratch.wrote(capacity, into: buffer, capacity: capacity - 16)
        #expect(releaseOffset(buffer, capacity: capacity - 16) == capacity - 16, "never past the buffer")
    }

    /// A held stream's reply gives its headers back once its head is written
    /// (`EventStream.dropHeadersOnceWritten`): every one goes, footers and repeated names and
    /// pairs included.
    @Test func droppingAReplysHeadersLeavesNone() throws {
        let reply = try #require(MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT))
        defer { MHD_destroy_response(reply) }
        let headers = [
            ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("Cache-Control", "no-cache"),
            ("Cache-Control", "no-store"), ("Content-Security-Policy", String(repeating: "a", count: 900)),
        ]
        for (name, value) in headers { #expect(MHD_add_response_header(reply, name, value) == .YES) }
        #expect(MHD_add_response_footer(reply, "X-Footer", "1") == .YES)
        #expect(MHD_get_response_headers(reply, nil, nil) == Int32(headers.count + 1))
        #expect(rp_response_drop_headers(reply) == 0)
        #expect(MHD_get_response_headers(reply, nil, nil) == 0)
        #expect(rp_response_drop_headers(reply) == 0, "nothing to drop")
    }

    /// Frames of several pages, sent to a stream that went idle (so into a buffer whose pages were
    /// released), arrive byte for byte, again and again; over HTTP/1.1 (chunked, read into the
    /// connection's memory) and HTTP/1.0 (no chunks: read through the response's own block).
    @Test(arguments: ["HTTP/1.1", "HTTP/1.0"])
    func framesSentAfterIdleArriveWhole(version: String) throws {
        let server = try TestServer()
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /held \(version)\r\nHost: x\r\n\r\n")
        let head = client.read { $0.contains("retry: 2000\n\n") }
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.lowercased().contains("transfer-encoding: chunked") == (version == "HTTP/1.1"))
        let stream = try #require(server.heldStreams.first)
        var expected = ""
        for (round, size) in [12_000, 300, 9_000, 5].enumerated() {
            try waitUntilIdle(stream)
            let data = (0..<size).map { String(UnicodeScalar(UInt8(65 + ($0 + round) % 26))) }.joined()
            stream.send(data: data, id: "\(round)")
            expected += "id: \(round)\ndata: \(data)\n\n"
            let received = client.read { Self.body(of: $0, chunked: version == "HTTP/1.1").hasSuffix(expected) }
            let arrivedWhole = Self.body(of: received, chunked: version == "HTTP/1.1").hasSuffix(expected)
            #expect(arrivedWhole, "round \(round): every frame so far, byte for byte")
        }
        stream.close()
        if version == "HTTP/1.1" {
            #expect(client.read { $0.hasSuffix("\r\n0\r\n\r\n") }.hasSuffix("\r\n0\r\n\r\n"), "the final chunk")
        } else {
            #expect(client.waitForClose(), "without chunks, the end of the body is the end of the connection")
        }
    }

    /// Waits (bounded) until the stream's reader has found its queue empty and suspended it.
    private func waitUntilIdle(_ stream: EventStream) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !stream.isIdle {
            guard ContinuousClock.now < deadline else { throw IdleTimeout() }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    private struct IdleTimeout: Error {}

    /// The body of a response read so far, its chunks' sizes taken out when it is chunked.
    private static func body(of response: String, chunked: Bool) -> String {
        guard let start = response.range(of: "\r\n\r\n") else { return "" }
        var rest = Substring(response[start.upperBound...])
        guard chunked else { return String(rest) }
        var body = ""
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16) {
            let chunkStart = rest.utf8.index(line.upperBound, offsetBy: 0)
            guard rest.utf8.distance(from: chunkStart, to: rest.utf8.endIndex) >= size + 2 else { break }
            let chunkEnd = rest.utf8.index(chunkStart, offsetBy: size)
            body += rest[chunkStart..<chunkEnd]
            rest = rest[rest.utf8.index(chunkEnd, offsetBy: 2)...]
        }
        return body
    }
}
