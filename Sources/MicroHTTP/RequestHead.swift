import CMicroHTTPD
import Dispatch
import Foundation
import Locking
import Logging

/// What a request's head says, read from libmicrohttpd: header fields, the query, the client's address.
extension ServerCore {
    // MARK: Request head

    func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    func headerFields(of connection: OpaquePointer) -> [(name: String, value: String)] {
        pairs(of: connection, kind: .HEADER_KIND).map { (name: $0.0, value: $0.1) }
    }

    /// The query's parameters, decoded; `nil` when any name or value is not valid percent-encoded
    /// UTF-8 (answered 400: skipping it would quietly change the request's meaning, as
    /// `?clock=%ff` once made a real-time session).
    func query(of connection: OpaquePointer) -> [String: String]? {
        var query: [String: String] = [:]
        for (name, value) in pairs(of: connection, kind: .GET_ARGUMENT_KIND) {
            guard let key = PathDecoding.decodeQueryComponent(name),
                let decoded = PathDecoding.decodeQueryComponent(value)
            else { return nil }
            query[key] = decoded
        }
        return query
    }

    static let invalidQuery = HTTPResponse.error(
        status: 400,
        code: "invalid_query",
        message: "The query is not valid percent-encoded UTF-8."
    )

    private func pairs(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String)] {
        // Counting first (no callback) spares the collector for the usual request without a query.
        guard MHD_get_connection_values(connection, kind, nil, nil) > 0 else { return [] }
        let collector = PairCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(
                connection,
                kind,
                collectValueCallback,
                Unmanaged.passUnretained(collector).toOpaque()
            )
        }
        return collector.pairs
    }

    /// The socket's peer address, or — with ``ServerConfiguration/trustProxy`` — the address the
    /// trusted proxy wrote into `X-Forwarded-For` when it is a valid IP literal.
    func effectiveClientAddress(of connection: OpaquePointer) -> String {
        if configuration.trustProxy,
            let added = Self.proxyAddedAddress(headerFields(of: connection).filter { $0.name.lowercased() == "x-forwarded-for" }.map(\.value)),
            (try? SocketAddress(host: added, port: 0)) != nil
        {
            return added
        }
        guard let address = rp_connection_client_address(connection) else { return "" }
        return SocketAddress.describe(address)
    }

    /// The address a trusted proxy added to `X-Forwarded-For` (its `values`, in the order the
    /// request carried them): the last element of the last. Every element before it came from
    /// the client, which may write anything there — a proxy that appends
    /// (`$proxy_add_x_forwarded_for`) passes `SPOOF, CLIENT` — so only the last is the proxy's word.
    static func proxyAddedAddress(_ values: [String]) -> String? {
        guard let last = values.last?.split(separator: ",", omittingEmptySubsequences: false).last else { return nil }
        let address = last.trimmingCharacters(in: .whitespaces)
        return address.isEmpty ? nil : address
    }
}
