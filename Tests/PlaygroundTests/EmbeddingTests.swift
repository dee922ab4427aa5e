import Foundation
import MicroHTTP
import Testing

@testable import PlaygroundServer

/// `/embed/…` and `/oembed`: which addresses name an embed, and what the answers say.
@Suite("Embedding")
struct EmbeddingTests {
    let router: Router
    let gallery: GalleryIndex

    init() throws {
        let gallery = try GalleryIndex(publicRoot: APITests.publicFolder)
        self.gallery = gallery
        router = try TestRouter.make { $0.gallery = gallery }
    }

    func get(_ path: String, query: [String: String] = [:], host: String? = "play.example:8080") -> HTTPResponse {
        TestRouter.respond(router, to: HTTPRequest(method: .get, rawPath: path, query: query, headers: host.map { ["Host": $0] } ?? [:]))
    }

    func target(_ url: String, host: String? = "play.example:8080") -> EmbedTarget? {
        EmbedTarget(url: url, host: host, gallery: gallery)
    }

    /// `a = just(1)` as a link writes it.
    let program = "YSA9IGp1c3QoMSk"

    @Test func theGalleryIsReadFromThePagesFolder() throws {
        let throttle = try #require(gallery.entries["throttle"])
        #expect(throttle.name == "throttle" && throttle.inputs == 1 && throttle.outputs == 1)
        #expect(gallery.entries["compareFlattening"]?.outputs == 3)
    }

    @Test func thePagesAddressesAndTheEmbedsOwnNameTheSameThings() {
        let base = "http://play.example:8080"
        #expect(target("\(base)/#gallery/throttle") == .entry(id: "throttle", compare: nil))
        #expect(target("\(base)/#gallery/throttle/compare=\(program)") == .entry(id: "throttle", compare: program))
        #expect(target("\(base)/embed/gallery/throttle?compare=\(program)") == .entry(id: "throttle", compare: program))
        #expect(target("\(base)#program=\(program)") == .program(encoded: program))
        #expect(target("\(base)/embed/program?p=\(program)") == .program(encoded: program))
        #expect(target("HTTPS://PLAY.example:8080/#gallery/throttle")?.embedPath == "/embed/gallery/throttle")
    }

    @Test func anythingElseNamesNothing() {
        for url in [
            "http://other.example:8080/#gallery/throttle",  // another host
            "http://play.example/#gallery/throttle",  // another port
            "ftp://play.example:8080/#gallery/throttle",
            "http://play.example:8080/#gallery/nope",
            "http://play.example:8080/#gallery/throttle/compare=!!",
            "http://play.example:8080/#gallery/throttle/compare=a/compare=b",
            "http://play.example:8080/#program=",
            "http://play.example:8080/#program=AAAAA",
            "http://play.example:8080/#program=__8",  // base64url of bytes that are not UTF-8
            "http://play.example:8080/#scenarios",
            "http://play.example:8080/api/scenarios",
            "http://play.example:8080/embed/program",
            "not a url at all",
            "",
        ] {
            #expect(target(url) == nil, "\(url)")
        }
        #expect(target("http://play.example:8080/#gallery/throttle", host: nil) == nil, "no Host, no address of ours")
    }

    @Test func oEmbedAnswersARichFrameOfTheEmbed() throws {
        let response = get("/oembed", query: ["url": "http://play.example:8080/#gallery/compareFlattening", "maxheight": "300"])
        #expect(response.status == 200)
        guard case .bytes(let bytes) = response.body else { return }
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(answer["type"] as? String == "rich" && answer["version"] as? String == "1.0")
        #expect(answer["height"] as? Int == 300 && answer["width"] as? Int == 720)
        let html = try #require(answer["html"] as? String)
        #expect(html.hasPrefix("<iframe src=\"http://play.example:8080/embed/gallery/compareFlattening\""))
        #expect(html.contains("title=\"switchToLatest / flatten / concat — Reactive Playground operator gallery\""))
    }

    @Test func oEmbedRefusesClearly() {
        let url = "http://play.example:8080/#gallery/throttle"
        #expect(get("/oembed").status == 400)
        #expect(get("/oembed", query: ["url": url, "format": "xml"]).status == 501)
        #expect(get("/oembed", query: ["url": url, "format": "atom"]).status == 400)
        #expect(get("/oembed", query: ["url": url, "maxwidth": "0"]).status == 400)
        #expect(get("/oembed", query: ["url": url, "maxwidth": "1e9"]).status == 400)
        #expect(get("/oembed", query: ["url": url, "maxheight": "99999999999999999999"]).status == 400)
        #expect(get("/oembed", query: ["url": "http://elsewhere.example/#gallery/throttle"]).status == 404)
        #expect(get("/oembed", query: ["url": url], host: nil).status == 404)
    }

    @Test func onlyTheEmbedsMayBeFramed() {
        for path in ["/embed/gallery/throttle", "/embed/program"] {
            let response = get(path)
            #expect(response.status == 200)
            let policy = response.headers.first { $0.name == "Content-Security-Policy" }?.value ?? ""
            #expect(policy.hasSuffix("frame-ancestors *") && policy.contains("script-src 'self'"))
            #expect(response.headers.contains { $0.name == "X-Frame-Options" && $0.value.isEmpty }, "removes the default DENY")
        }
        let defaults = API.securityHeaders
        #expect(defaults.contains { $0.name == "X-Frame-Options" && $0.value == "DENY" })
        #expect(defaults.contains { $0.name == "Content-Security-Policy" && $0.value.hasSuffix("frame-ancestors 'none'") })
    }
}
