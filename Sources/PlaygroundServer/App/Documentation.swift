import Foundation
import MicroHTTP

/// `/docs/…`: Reactive's DocC documentation, built as a static site by `scripts/build-docs.sh`
/// (`.build/docs-site`; `/app/docs` in the container image), so that the gallery and the editor can
/// link each operator to its page. DocC's pages style themselves inline and load `data:` images,
/// so they get a policy of their own; their one inline script (the base path) is moved to a file
/// by the build script, so scripts stay this server's files alone.
enum Documentation {
    /// The policy of the documentation's pages.
    static let headers: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
                + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
    ]

    /// `GET /api/docs`: whether the site was built, and where its navigator index is then.
    struct Status: Encodable {
        let built: Bool
        /// DocC's navigator index of the site (which pages exist), or `nil` without a site.
        let index: String?

        init(built: Bool) {
            self.built = built
            index = built ? "/docs/index/index.json" : nil
        }
    }

    /// Where the built site is when `--docs` is not given: beside the page's folder's parent in a
    /// checkout (`.build/docs-site`), or `docs` beside the executable (the container's layout).
    static func locate(explicit: String?, publicRoot: String) throws -> StaticFiles? {
        if let explicit { return try StaticFiles(root: explicit, headers: headers) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: publicRoot).deletingLastPathComponent().appendingPathComponent(".build/docs-site").path,
            executable.appendingPathComponent("docs").path,
        ]
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/index.html") {
            return try StaticFiles(root: candidate, headers: headers)
        }
        return nil
    }

    /// Answers a request under `/docs`: the page asked for, `/docs` itself sent to the module's
    /// page, or 404 `docs_not_built` when the site was not built.
    static func respond(to request: HTTPRequest, from site: StaticFiles?) -> HTTPResponse {
        guard let site else {
            return PlaygroundError(
                .docsNotBuilt,
                "The documentation is not built on this server: scripts/build-docs.sh builds it (the container image has it)."
            ).response
        }
        guard request.rawPath != "/docs", request.rawPath != "/docs/" else {
            var response = HTTPResponse(status: 302)
            response.addHeader("Location", "/docs/documentation/reactive/")
            return response
        }
        var inner = request
        inner.rawPath = String(request.rawPath.dropFirst("/docs".count))
        return site.respond(to: inner)
    }
}
