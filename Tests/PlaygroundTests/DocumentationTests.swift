import Foundation
import MicroHTTP
import Testing

@testable import PlaygroundServer

/// `/docs/…`: Reactive's documentation site, when it was built.
@Suite("Documentation site")
struct DocumentationTests {
    func router(documentation: StaticFiles?) throws -> Router {
        try TestRouter.make { $0.documentation = documentation }
    }

    func get(_ path: String, on router: Router) -> HTTPResponse {
        TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: path))
    }

    @Test func aBuiltSiteIsServedUnderDocsWithItsOwnPolicy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("documentation/reactive"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!doctype html><title>Reactive</title>".utf8).write(to: folder.appendingPathComponent("documentation/reactive/index.html"))
        try Data("<!doctype html>".utf8).write(to: folder.appendingPathComponent("index.html"))
        let router = try router(documentation: try StaticFiles(root: folder.path, headers: Documentation.headers))

        let moved = get("/docs", on: router)
        #expect(moved.status == 302)
        #expect(moved.headers.contains { $0.name == "Location" && $0.value == "/docs/documentation/reactive/" })
        #expect(get("/docs/", on: router).status == 302)

        let page = get("/docs/documentation/reactive/", on: router)
        #expect(page.status == 200)
        guard case .prepared(let prepared) = page.body else {
            Issue.record("a static file is a prepared response")
            return
        }
        #expect(String(decoding: prepared.body, as: UTF8.self).contains("<title>Reactive</title>"))
        let policy = prepared.headers.first { $0.name == "Content-Security-Policy" }?.value ?? ""
        #expect(policy.contains("script-src 'self';") && policy.contains("style-src 'self' 'unsafe-inline'"))
        #expect(get("/docs/nothing-here", on: router).status == 404)
        #expect(get("/docs/../Package.swift", on: router).status == 403, "never outside the site")
        #expect(get("/", on: router).status == 200, "the page is still the page's")
        #expect(try status(on: router) == Status(built: true, index: "/docs/index/index.json"))
    }

    /// `GET /api/docs`'s answer.
    struct Status: Decodable, Equatable {
        let built: Bool
        let index: String?
    }

    func status(on router: Router) throws -> Status? {
        let response = get("/api/docs", on: router)
        #expect(response.status == 200)
        guard case .bytes(let bytes) = response.body else {
            Issue.record("a JSON answer is bytes")
            return nil
        }
        return try JSONDecoder().decode(Status.self, from: Data(bytes))
    }

    @Test func withoutASiteDocsSaysHowToBuildIt() throws {
        let response = get("/docs/documentation/reactive/", on: try router(documentation: nil))
        #expect(response.status == 404)
        guard case .bytes(let bytes) = response.body else { return }
        let error = (try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "docs_not_built")
        #expect((error?["message"] as? String)?.contains("scripts/build-docs.sh") == true)
        #expect(try status(on: try router(documentation: nil)) == Status(built: false, index: nil), "no index to ask for")
    }
}
